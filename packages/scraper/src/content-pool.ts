/**
 * The bounded content pool: page conversion (parse → main content → markdown/html/text → metadata,
 * and links) runs in worker threads, so a heavy page cannot stall the worker's event loop (its
 * other jobs, lock renewals, health checks). Bounded threads, none while idle (`minThreads: 0` +
 * idle timeout), a heap cap per thread and a time budget per page: past either, only that page's
 * thread dies (piscina terminates it on abort) and its job fails with a typed error.
 */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { type ContentEnv, contentEnvFromProcess } from '@wcs/config';
import type { ExtractedLink } from '@wcs/discovery';
import type { InflateLimits } from '@wcs/documents';
import { ContentProcessingError, decodeError, TargetTooLargeError, TimeoutError } from '@wcs/errors';
import type { DocumentData } from '@wcs/queues';
import Piscina from 'piscina';
import { type ContentTask, type ContentTaskResult, runContentTask } from './content.task';

export interface ContentPoolOptions {
  /** 0 = convert in-process: no budget, no heap cap, blocks the event loop (debugging, test seams). */
  threads: number;
  idleTimeoutMs: number;
  /** Budget of one page, from when it is handed to the pool (queueing included). */
  taskTimeoutMs: number;
  heapMb: number;
  /** Budget of one document (PDF, DOCX) instead of taskTimeoutMs; default taskTimeoutMs. */
  documentTimeoutMs?: number;
  /** Pages of a PDF that are read (the task's own `maxPages` wins); default @wcs/documents' 500. */
  documentMaxPages?: number;
  /** Decompression limits of a document (the task's own win); default @wcs/documents' DEFAULT_INFLATE_LIMITS. */
  documentInflateLimits?: InflateLimits;
  /** OCR of PDFs without a text layer (OCR_ENABLED, OCR_LANGUAGES); default off. */
  ocr?: {
    enabled: boolean;
    languages: string /** Where OCR work dirs go; default os.tmpdir(). */;
    tmpDir?: string;
  };
}

export interface ConvertedPage {
  data: DocumentData;
  /** Only when the task asked for links. */
  links?: ExtractedLink[];
}

const ENTRY = path.join(__dirname, 'content-worker.cjs');

export function contentPoolOptions(env: ContentEnv): ContentPoolOptions {
  return {
    threads: env.CONTENT_POOL_THREADS,
    idleTimeoutMs: env.CONTENT_POOL_IDLE_MS,
    taskTimeoutMs: env.CONTENT_TASK_TIMEOUT_MS,
    heapMb: env.CONTENT_THREAD_HEAP_MB,
    documentTimeoutMs: env.DOCUMENT_TIMEOUT_MS,
    documentMaxPages: env.DOCUMENT_MAX_PAGES,
    documentInflateLimits: {
      maxInflatedBytes: env.DOCUMENT_MAX_INFLATED_BYTES,
      maxInflateRatio: env.DOCUMENT_MAX_INFLATE_RATIO,
    },
    ocr: { enabled: env.OCR_ENABLED, languages: env.OCR_LANGUAGES },
  };
}

function isOutOfMemory(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory/i.test(String(err));
}

export class ContentPool {
  private piscina: Piscina<ContentTask, ContentTaskResult> | undefined;

  constructor(readonly options: ContentPoolOptions) {}

  /** Threads alive now (0 when idle long enough). */
  get threadCount(): number {
    return this.piscina?.threads.length ?? 0;
  }

  /** The live threads (tests wait for their exit). */
  threads(): Worker[] {
    return [...(this.piscina?.threads ?? [])];
  }

  private pool(): Piscina<ContentTask, ContentTaskResult> {
    this.piscina ??= new Piscina<ContentTask, ContentTaskResult>({
      filename: ENTRY,
      name: 'default',
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: this.options.idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, stackSizeMb: 4 },
    });
    return this.piscina;
  }

  /**
   * Convert one page. Rejects with TimeoutError past the budget, TargetTooLargeError when the
   * page needs more than the thread's heap, the caller signal's reason when it aborts, and
   * ContentProcessingError (or the task's own typed error) otherwise. The budget counts from
   * here: a page waiting for a free thread spends it too. A document's `task.bytes` are moved to
   * the thread when they fill their buffer alone: the caller must not use them afterwards.
   */
  async run(asked: ContentTask, signal?: AbortSignal, budgetMs?: number): Promise<ConvertedPage> {
    signal?.throwIfAborted();
    const isDocument = asked.bytes !== undefined;
    let task: ContentTask =
      isDocument && asked.maxPages === undefined && this.options.documentMaxPages !== undefined
        ? { ...asked, maxPages: this.options.documentMaxPages }
        : asked;
    if (isDocument && task.inflateLimits === undefined && this.options.documentInflateLimits)
      task = { ...task, inflateLimits: this.options.documentInflateLimits };
    let ocrChild: OcrChild | undefined;
    if (isDocument && task.ocr === undefined && this.options.ocr?.enabled) {
      // Children of the thread must end by its budget: the engine kills them at this deadline.
      const own = this.options.documentTimeoutMs ?? this.options.taskTimeoutMs;
      const deadlineAt = Date.now() + Math.min(own, budgetMs ?? Number.POSITIVE_INFINITY);
      const { tmpDir, ...ocr } = this.options.ocr;
      ocrChild = newOcrChild(tmpDir ?? tmpdir());
      task = { ...task, ocr: { ...ocr, deadlineAt, processSlot: ocrChild.slot, workDir: ocrChild.dir } };
    }
    if (this.options.threads === 0) return settle(await runContentTask(task));
    const own = isDocument
      ? (this.options.documentTimeoutMs ?? this.options.taskTimeoutMs)
      : this.options.taskTimeoutMs;
    // A caller with less time left than the pool's budget (a job near its deadline) passes it.
    const budget = Math.max(1, Math.min(own, budgetMs ?? Number.POSITIVE_INFINITY));
    const ac = new AbortController();
    const timer = setTimeout(
      () =>
        ac.abort(
          new TimeoutError(`Converting ${task.finalUrl.slice(0, 200)} took longer than ${budget} ms`, {
            details: { contentTimeoutMs: budget },
          }),
        ),
      budget,
    );
    const onAbort = () => ac.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let out: ContentTaskResult;
    try {
      const transfer = transferable(task);
      out = await this.pool().run(transfer.task, { signal: ac.signal, transferList: transfer.list });
    } catch (err) {
      if (ac.signal.aborted) throw ac.signal.reason;
      if (isOutOfMemory(err)) {
        throw new TargetTooLargeError(
          `Converting ${task.finalUrl.slice(0, 200)} needs more than ${this.options.heapMb} MB of memory`,
          { details: { contentHeapMb: this.options.heapMb } },
        );
      }
      throw new ContentProcessingError(task.finalUrl, { cause: err });
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // A terminated thread (cancel, budget) leaves its OCR tool and temp dir behind: end them here.
      if (ocrChild) await endOcrChild(ocrChild);
    }
    return settle(out);
  }

  async close(): Promise<void> {
    const p = this.piscina;
    this.piscina = undefined;
    await p?.destroy();
  }
}

/**
 * A document's bytes go to the thread by transfer, not by copy. Only a buffer the bytes fill
 * alone is moved (a pooled or sliced Buffer shares its ArrayBuffer with others): the caller's
 * `task.bytes` is then detached, which is why `run` says it takes them. Otherwise they are
 * copied once into a buffer of their own, which is moved (cloning the view would copy its whole
 * backing buffer).
 */
function transferable(task: ContentTask): { task: ContentTask; list: ArrayBuffer[] } {
  const b = task.bytes;
  if (!b) return { task, list: [] };
  const own = b.buffer instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
  const bytes = own ? b : new Uint8Array(b);
  return { task: { ...task, bytes }, list: [bytes.buffer as ArrayBuffer] };
}

/** Where a thread's OCR tool leaves its pid and files, so the pool can clean up after the thread. */
interface OcrChild {
  slot: Int32Array;
  dir: string;
}

function newOcrChild(tmpDir: string): OcrChild {
  return {
    slot: new Int32Array(new SharedArrayBuffer(4)),
    dir: path.join(tmpDir, `wcs-ocr-${randomUUID()}`),
  };
}

async function endOcrChild(c: OcrChild): Promise<void> {
  const pid = Atomics.load(c.slot, 0);
  // SIGTERM to coreutils `timeout`, which forwards it to pdftoppm/tesseract and exits.
  if (pid > 0) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  await rm(c.dir, { recursive: true, force: true });
}

function settle(out: ContentTaskResult): ConvertedPage {
  if (!out.ok) throw decodeError(out.error);
  return out.links ? { data: out.data, links: out.links } : { data: out.data };
}

let shared: ContentPool | undefined;

/** The process's pool, configured from the environment (CONTENT_* variables) on first use. */
export function sharedContentPool(): ContentPool {
  shared ??= new ContentPool(contentPoolOptions(contentEnvFromProcess()));
  return shared;
}

/** For service shutdown and tests: ends the shared pool's threads (a later use starts a new one). */
export async function closeSharedContentPool(): Promise<void> {
  const p = shared;
  shared = undefined;
  await p?.close();
}
