import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { envBool as bool, envInt as int } from './schemas';

/**
 * The content thread pool (packages/scraper/src/content-pool.ts): where every page's parse, main
 * content, markdown and link extraction run, off the worker's event loop. Part of the env schema
 * of every service that converts pages; its wiring creates the pool from what it parsed.
 */
export const contentEnv = z.object({
  /**
   * Threads converting pages at once, per process. Default: the CPU count, at least 2, at most 8.
   * 0 converts in-process (no budget, no heap cap, blocks the event loop): for debugging only.
   */
  CONTENT_POOL_THREADS: int(Math.min(8, Math.max(2, availableParallelism())), 0).describe(
    'threads converting pages per process; `0` = in-process',
  ),
  /** An idle thread exits after this long (the pool keeps no thread when the service is idle). */
  CONTENT_POOL_IDLE_MS: int(30_000, 100).describe(
    'an idle conversion thread exits after this long (none while the process is idle)',
  ),
  /**
   * Start the threads when the service starts and run each once over a built-in page, so the first
   * pages after a start (a deploy, a scale-up under a burst) do not wait for threads to load their code.
   */
  CONTENT_POOL_WARM_UP: bool(true).describe(
    'start the conversion threads once the service has started and warm them on built-in pages until the first real page arrives (they still exit when idle)',
  ),
  /**
   * Built-in pages of several kinds each thread converts in that warm-up: more leave less of the
   * JIT's compiling to the first real pages (30 cut ~15 % of a thread's CPU over its first 181
   * real pages, for ~0.6 s of CPU per thread), and hold more memory until the threads idle out.
   */
  CONTENT_POOL_WARM_UP_PAGES: int(30, 1).describe(
    'built-in pages each conversion thread converts in its warm-up (~20 ms of CPU each; more make the first real pages cheaper and hold more memory until the threads idle out)',
  ),
  /**
   * Budget of one page's conversion, from when a thread begins it (waiting for a thread is not
   * counted); past it the thread is terminated and the job gets TIMEOUT.
   */
  CONTENT_TASK_TIMEOUT_MS: int(20_000, 100).describe(
    "one page's conversion budget, from when a thread begins it (504 timeout)",
  ),
  /**
   * Budget of one page's includeTags/excludeTags matching (all its passes); past it the job fails
   * SELECTOR_TOO_EXPENSIVE (422, billed). Keep it below CONTENT_TASK_TIMEOUT_MS.
   */
  CONTENT_SELECTOR_BUDGET_MS: int(5_000, 10).describe(
    "one page's `includeTags`/`excludeTags` matching (422 selector too expensive, billed)",
  ),
  /** Heap cap of one thread (old generation); a page that needs more fails TARGET_TOO_LARGE. */
  CONTENT_THREAD_HEAP_MB: int(512, 64).describe('heap cap of one conversion thread (502 target too large)'),
  /** Pages of a PDF that are read; more are cut with a warning saying how many were read. */
  DOCUMENT_MAX_PAGES: int(500, 1).describe('PDF pages read (more: cut with a warning)'),
  /** Budget of one document's conversion (PDF, DOCX) instead of CONTENT_TASK_TIMEOUT_MS. */
  DOCUMENT_TIMEOUT_MS: int(60_000, 100).describe("one document's conversion budget"),
  /** Bytes one document's compressed parts (DOCX entries, PDF Flate streams) may inflate to in all; past it 502 TARGET_TOO_LARGE. */
  DOCUMENT_MAX_INFLATED_BYTES: int(128 * 1024 * 1024, 1024).describe(
    "bytes one document's compressed parts (DOCX ZIP entries, PDF Flate streams) may inflate to in all; past it 502 target too large",
  ),
  /** One compressed part of a document may inflate to this many times its compressed size (1 MiB always). */
  DOCUMENT_MAX_INFLATE_RATIO: int(200, 1).describe(
    'one compressed part of a document may inflate to this many times its compressed size; past it 502 target too large',
  ),
  /** OCR of PDFs without a text layer with Debian's tesseract-ocr + poppler-utils, when installed. */
  OCR_ENABLED: bool(false).describe(
    "OCR of PDFs without a text layer (needs Debian's `tesseract-ocr` and `poppler-utils`)",
  ),
  /** tesseract languages (`-l`), e.g. `eng` or `eng+deu` (their tesseract-ocr-* packages installed). */
  OCR_LANGUAGES: z
    .string()
    .trim()
    .min(1)
    .default('eng')
    .describe('tesseract languages, e.g. `eng+deu` (each needs its `tesseract-ocr-*` package)'),
});

export type ContentEnv = z.infer<typeof contentEnv>;
