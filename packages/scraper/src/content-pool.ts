/**
 * The bounded content pool: page conversion (parse → main content → markdown/html/text → metadata,
 * and links) runs in worker threads, so a heavy page cannot stall the worker's event loop (its
 * other jobs, lock renewals, health checks). Bounded threads, none while idle (`minThreads: 0` +
 * idle timeout), a heap cap per thread and a time budget per page: past either, only that page's
 * thread dies (piscina terminates it on abort) and its job fails with a typed error.
 *
 * Each service that converts pages creates its pool in its wiring, from the env it parsed
 * (`new ContentPool(contentPoolOptions(env))`), hands it to `scrapeDocument`/`documentFromPage`,
 * and closes it on shutdown with its other resources.
 */

import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import type { MessagePort, Worker } from 'node:worker_threads';
import type { ContentEnv } from '@wcs/config';
import type { VerdictResult } from '@wcs/content';
import type { ExtractedLink } from '@wcs/discovery';
import type { InflateLimits } from '@wcs/documents';
import {
  ContentProcessingError,
  decodeError,
  ServiceUnavailableError,
  TargetTooLargeError,
  TimeoutError,
} from '@wcs/errors';
import type { DocumentData } from '@wcs/queues';
import Piscina from 'piscina';
import {
  type ContentTask,
  type ContentTaskResult,
  type RawPageResult,
  type RawPageTask,
  runContentTask,
} from './content.task';
import type { WarmUpTask } from './content-warm-up';
import { FairTaskQueue } from './fair-task-queue';

type ThreadOutput = ContentTaskResult | RawPageResult;

/**
 * The young generation of a content thread, MB (V8 sizes its semi-spaces from it: 16 MB each). A
 * page's parse and conversion allocate tens of MB that die with the page; in 4 MB semi-spaces most
 * of it is promoted, and marking the old generation then cost ~2–3 ms of CPU per real page on V8's
 * helper threads (bench:scrape, the worker's "runtime threads"). Threads end when idle, so this is
 * no cost of an idle process.
 */
const THREAD_YOUNG_MB = 48;

/**
 * Built-in pages each thread converts in `warmUp` (content-warm-up-pages.ts), ~20 ms each, unless
 * the options say otherwise (CONTENT_POOL_WARM_UP_PAGES). One page converted many times left the
 * first real pages as costly as without it (the JIT compiles for their variety).
 */
const WARM_UP_PAGES = 30;

/**
 * V8's flags win over a thread's resourceLimits, and the services run with
 * `--max-semi-space-size=4` (@wcs/runtime, sized for idle processes' footprint): cleared here for
 * the isolates created from now on (the content threads; the main isolate keeps its own size), so
 * the threads take THREAD_YOUNG_MB.
 */
function useOwnYoungGeneration(): void {
  // 0 is V8's own default (unset): a process started without the flag is unchanged.
  setFlagsFromString('--max-semi-space-size=0');
}

export interface ContentPoolOptions {
  /** 0 = convert in-process: no budget, no heap cap, blocks the event loop (debugging, test seams). */
  threads: number;
  idleTimeoutMs: number;
  /** Budget of one page, from when its thread begins it (waiting for a thread is not counted). */
  taskTimeoutMs: number;
  /** Budget of one page's includeTags/excludeTags matching (SELECTOR_TOO_EXPENSIVE past it); default none. */
  selectorBudgetMs?: number;
  heapMb: number;
  /** Budget of one document (PDF, DOCX) instead of taskTimeoutMs; default taskTimeoutMs. */
  documentTimeoutMs?: number;
  /** Pages of a PDF that are read (the task's own `maxPages` wins); default @wcs/documents' 500. */
  documentMaxPages?: number;
  /** Decompression limits of a document (the task's own win); default @wcs/documents' DEFAULT_INFLATE_LIMITS. */
  documentInflateLimits?: InflateLimits;
  /** `warmUpIfWanted` starts the threads and warms them up on built-in pages; default off. */
  warmUp?: boolean;
  /** Built-in pages per thread in a warm-up; default WARM_UP_PAGES. */
  warmUpPages?: number;
  /**
   * Threads load the build's bundle of their code, with its code cache, when there is one
   * (content-worker.cjs); false: the compiled files (a benchmark's comparison). Default true.
   */
  threadBundle?: boolean;
  /** OCR of PDFs without a text layer (OCR_ENABLED, OCR_LANGUAGES); default off. */
  ocr?: {
    enabled: boolean;
    languages: string /** Where OCR work dirs go; default os.tmpdir(). */;
    tmpDir?: string;
  };
}

export interface ConvertedPage {
  data: DocumentData;
  /** What the page is (@wcs/content verdict/): the scraper fails walls and error pages on it. */
  verdict: VerdictResult;
  /** Only when the task asked for links. */
  links?: ExtractedLink[];
}

const ENTRY = path.join(__dirname, 'content-worker.cjs');

/** What a thread's code came from (content-worker.cjs), and whether V8 took the code cache. */
export interface ThreadCode {
  from: 'bundle' | 'files' | 'source';
  codeCache: 'accepted' | 'rejected' | 'none';
}

/** Tasks about a thread itself rather than a page (content-worker.cjs). */
export type ThreadControl = { threadInfo: true } | { writeCodeCache: { pages: number } };

/**
 * How long a thread may take to begin a page (a new thread loads the pipeline's code: 0.5–3 s
 * under tsx on a loaded machine) before the page fails TIMEOUT anyway: a thread that cannot start
 * is broken, and the page must not wait on it forever.
 */
const THREAD_START_MS = 30_000;

/** The pool's options from the content settings a service parsed with its env (CONTENT_*, DOCUMENT_*, OCR_*). */
export function contentPoolOptions(env: ContentEnv): ContentPoolOptions {
  return {
    threads: env.CONTENT_POOL_THREADS,
    idleTimeoutMs: env.CONTENT_POOL_IDLE_MS,
    warmUp: env.CONTENT_POOL_WARM_UP,
    warmUpPages: env.CONTENT_POOL_WARM_UP_PAGES,
    taskTimeoutMs: env.CONTENT_TASK_TIMEOUT_MS,
    selectorBudgetMs: env.CONTENT_SELECTOR_BUDGET_MS,
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

/** A page waiting for a thread. */
interface Waiting {
  readonly account: string;
  start(): void;
  fail(reason: unknown): void;
}

export class ContentPool {
  private piscina: Piscina<ContentTask, ThreadOutput> | undefined;
  private readonly queue: FairTaskQueue<Waiting>;
  /** While `close` runs: no page starts. */
  private closing = false;
  /** Pages and answers handed to `run` / `inspect` since the pool was created (warm-ups not counted). */
  private handed = 0;

  constructor(readonly options: ContentPoolOptions) {
    this.queue = new FairTaskQueue<Waiting>(Math.max(1, options.threads));
  }

  /**
   * The warm-up `options.warmUp` asks for, not awaited: the wiring calls it once its service has
   * started, so the threads' code loading does not compete with the start for the cores (on two
   * cores it put ~0.35 s on the one-process mode's time to healthy).
   */
  warmUpIfWanted(): void {
    if (this.options.warmUp) void this.warmUp();
  }

  /**
   * Starts every thread and warms its code up on `pages` built-in pages (content-warm-up.ts), so
   * the first real pages do not pay for the JIT. One loop per thread, one page per task: a page
   * handed over meanwhile queues behind at most one warm-up page. The first real page ends it: real
   * pages warm the same code at no extra cost, and a warm-up page then only takes a core from them
   * (a crawl of 2,000 small pages right after the start ran 8-12 % slower behind the whole warm-up).
   * Resolves to the warm-up pages converted; never rejects (a warm-up that fails costs nothing but
   * itself).
   */
  async warmUp(pages = this.options.warmUpPages ?? WARM_UP_PAGES): Promise<number> {
    if (this.options.threads === 0 || this.closing) return 0;
    const pool = this.pool() as unknown as Piscina<WarmUpTask, void>;
    const handedBefore = this.handed;
    let converted = 0;
    const loop = async (offset: number) => {
      for (let i = 0; i < pages && !this.closing && this.handed === handedBefore; i++) {
        // Each loop starts elsewhere in the set, so each thread meets every kind early.
        const ok = await pool.run({ warmUp: (i + offset) % pages }).then(
          () => true,
          () => false,
        );
        if (!ok) return;
        converted++;
      }
    };
    await Promise.all(Array.from({ length: this.options.threads }, (_, t) => loop(t * 7)));
    return converted;
  }

  /** What a thread of the pool loaded its code from (starting one when none is alive). */
  threadCode(): Promise<ThreadCode> {
    return this.control<ThreadCode>({ threadInfo: true });
  }

  /** Runs a control task on a thread, outside the pages' queue. */
  control<R>(task: ThreadControl): Promise<R> {
    return (this.pool() as unknown as Piscina<ThreadControl, R>).run(task);
  }

  /** Threads alive now (0 when idle long enough). */
  get threadCount(): number {
    return this.piscina?.threads.length ?? 0;
  }

  /** The live threads (tests wait for their exit). */
  threads(): Worker[] {
    return [...(this.piscina?.threads ?? [])];
  }

  private pool(): Piscina<ContentTask, ThreadOutput> {
    if (!this.piscina) useOwnYoungGeneration();
    this.piscina ??= new Piscina<ContentTask, ThreadOutput>({
      filename: ENTRY,
      name: 'default',
      minThreads: 0,
      maxThreads: this.options.threads,
      idleTimeout: this.options.idleTimeoutMs,
      concurrentTasksPerWorker: 1,
      workerData: { bundle: this.options.threadBundle !== false },
      resourceLimits: {
        maxOldGenerationSizeMb: this.options.heapMb,
        maxYoungGenerationSizeMb: THREAD_YOUNG_MB,
        stackSizeMb: 4,
      },
    });
    return this.piscina;
  }

  /**
   * Pages converting now, pages waiting for a thread, the hold cap of one account, and how many
   * pages were handed over for conversion since the pool was created (`tasks`).
   */
  stats(): { running: number; queued: number; holdCap: number; tasks: number } {
    return {
      running: this.queue.running,
      queued: this.queue.queued,
      holdCap: this.queue.holdCap,
      tasks: this.handed,
    };
  }

  /**
   * Convert one page. Rejects with TimeoutError past the budget, TargetTooLargeError when the
   * page needs more than the thread's heap, SelectorTooExpensiveError when its includeTags /
   * excludeTags matching runs past the selector budget, the caller signal's reason when it aborts
   * (also while the page waits for a thread: it is dropped, never run), and
   * ContentProcessingError (or the task's own typed error) otherwise.
   *
   * The page waits for a thread in its account's queue (fair-task-queue.ts: accounts served
   * round-robin, one account holds at most max(1, threads − 1) threads while another waits).
   * The budget counts from when the thread begins the page, not from here: waiting for a thread
   * is not conversion time. `budgetMs` (a job near its deadline) is the caller's time from here,
   * waiting included: a page still queued when it ends is dropped with TimeoutError. A
   * document's `task.bytes` are moved to the thread when they fill their buffer alone: the
   * caller must not use them afterwards.
   */
  async run(
    asked: ContentTask,
    signal?: AbortSignal,
    budgetMs?: number,
    accountId = '',
  ): Promise<ConvertedPage> {
    return settle((await this.exec(asked, signal, budgetMs, accountId)) as ContentTaskResult);
  }

  /**
   * A fetched answer's bytes, moved to a thread (the caller's `task.raw` is detached): decoded
   * there, checked (JavaScript, walls) and converted (content.task.ts, RawPageTask), under the same
   * budget, caps, errors and account queue as `run`. The conversion's own failure is in the result
   * (`converted`), for the caller to throw when it reaches the conversion.
   */
  async inspect(
    task: RawPageTask,
    signal?: AbortSignal,
    budgetMs?: number,
    accountId = '',
  ): Promise<RawPageResult> {
    return (await this.exec(task, signal, budgetMs, accountId)) as RawPageResult;
  }

  private async exec(
    asked: ContentTask,
    signal: AbortSignal | undefined,
    budgetMs: number | undefined,
    accountId: string,
  ): Promise<ThreadOutput> {
    signal?.throwIfAborted();
    this.handed++;
    const callerEnd = budgetMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + Math.max(1, budgetMs);
    const isDocument = asked.bytes !== undefined;
    const own = isDocument
      ? (this.options.documentTimeoutMs ?? this.options.taskTimeoutMs)
      : this.options.taskTimeoutMs;
    let task: ContentTask =
      isDocument && asked.maxPages === undefined && this.options.documentMaxPages !== undefined
        ? { ...asked, maxPages: this.options.documentMaxPages }
        : asked;
    if (isDocument && task.inflateLimits === undefined && this.options.documentInflateLimits)
      task = { ...task, inflateLimits: this.options.documentInflateLimits };
    if (this.options.selectorBudgetMs !== undefined && task.selectorBudgetMs === undefined)
      task = { ...task, selectorBudgetMs: this.options.selectorBudgetMs };
    if (this.options.threads === 0) {
      const ocr = isDocument
        ? this.ocrFor(task, Date.now() + Math.min(own, callerEnd - Date.now()))
        : undefined;
      try {
        return await runContentTask(ocr ? ocr.task : task);
      } finally {
        if (ocr) await endOcrChild(ocr.child);
      }
    }
    await this.threadFor(accountId, task.finalUrl, signal, callerEnd);
    try {
      signal?.throwIfAborted();
      if (this.closing) throw shuttingDown();
      return await this.convert(task, own, callerEnd, signal);
    } finally {
      this.queue.release(accountId);
      this.dispatch();
    }
  }

  /** Resolves when a thread is this page's; rejects when the caller gives up while it waits. */
  private threadFor(account: string, url: string, signal: AbortSignal | undefined, callerEnd: number) {
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => drop(signal?.reason);
      const entry: Waiting = {
        account,
        start: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        fail: (reason) => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          reject(reason);
        },
      };
      const drop = (reason: unknown) => {
        if (this.queue.remove(entry)) entry.fail(reason); // else already started
      };
      this.queue.push(entry);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (Number.isFinite(callerEnd)) {
        const ms = Math.max(0, callerEnd - Date.now());
        timer = setTimeout(
          () =>
            drop(
              new TimeoutError(
                `Converting ${url.slice(0, 200)} could not start within ${ms} ms: every content thread was busy`,
                { details: { contentQueuedMs: ms } },
              ),
            ),
          ms,
        );
      }
      this.dispatch();
    });
  }

  private dispatch(): void {
    for (let e = this.queue.take(); e; e = this.queue.take()) e.start();
  }

  private ocrFor(task: ContentTask, deadlineAt: number): { task: ContentTask; child: OcrChild } | undefined {
    if (task.ocr !== undefined || !this.options.ocr?.enabled) return undefined;
    // Children of the thread must end by its budget: the engine kills them at this deadline.
    const { tmpDir, ...ocr } = this.options.ocr;
    const child = newOcrChild(tmpDir ?? tmpdir());
    return {
      task: { ...task, ocr: { ...ocr, deadlineAt, processSlot: child.slot, workDir: child.dir } },
      child,
    };
  }

  /** On a thread of the pool: the page's budget runs from when that thread begins it. */
  private async convert(
    asked: ContentTask,
    own: number,
    callerEnd: number,
    signal: AbortSignal | undefined,
  ): Promise<ThreadOutput> {
    const handedAt = Date.now();
    const budget = Math.max(1, Math.min(own, callerEnd - handedAt));
    const ocr = asked.bytes !== undefined ? this.ocrFor(asked, handedAt + budget) : undefined;
    const begun = new BigInt64Array(new SharedArrayBuffer(8));
    const task: ContentTask = { ...(ocr ? ocr.task : asked), begunAt: begun };
    const ac = new AbortController();
    const expire = (ms: number) =>
      ac.abort(
        new TimeoutError(`Converting ${task.finalUrl.slice(0, 200)} took longer than ${ms} ms`, {
          details: { contentTimeoutMs: ms },
        }),
      );
    // First at hand-off + budget; then from when the thread began (a cold thread loads its code
    // first: not this page's time), or THREAD_START_MS after hand-off for a thread that never
    // begins; never past the caller's end.
    const check = () => {
      const at = Number(Atomics.load(begun, 0));
      const ownEnd = at > 0 ? at + own : handedAt + Math.max(own, THREAD_START_MS);
      const end = Math.min(ownEnd, callerEnd);
      const left = end - Date.now();
      if (left > 0) timer = setTimeout(check, left);
      else expire(end === callerEnd ? Math.max(1, Math.round(callerEnd - handedAt)) : own);
    };
    let timer = setTimeout(check, budget);
    const onAbort = () => ac.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    let out: ThreadOutput;
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
      if (ocr) await endOcrChild(ocr.child);
    }
    return out;
  }

  /**
   * Ends the threads. Pages waiting for one, and pages handed a thread but not yet on it, fail
   * UNAVAILABLE (they would otherwise start a new piscina); a later `run` starts afresh.
   */
  async close(): Promise<void> {
    this.closing = true;
    try {
      for (const e of this.queue.drain()) e.fail(shuttingDown());
      const p = this.piscina;
      this.piscina = undefined;
      await p?.destroy();
    } finally {
      this.closing = false;
    }
  }
}

/**
 * A document's bytes go to the thread by transfer, not by copy. Only a buffer the bytes fill
 * alone is moved (a pooled or sliced Buffer shares its ArrayBuffer with others): the caller's
 * `task.bytes` is then detached, which is why `run` says it takes them. Otherwise they are
 * copied once into a buffer of their own, which is moved (cloning the view would copy its whole
 * backing buffer).
 */
function transferable(task: ContentTask): { task: ContentTask; list: Array<ArrayBuffer | MessagePort> } {
  const { raw, cachedPort } = task as Partial<RawPageTask>;
  if (raw) {
    const bytes = movable(raw);
    const list: Array<ArrayBuffer | MessagePort> = [bytes.buffer as ArrayBuffer];
    if (cachedPort) list.push(cachedPort);
    return { task: { ...task, raw: bytes } as RawPageTask, list };
  }
  const b = task.bytes;
  if (!b) return { task, list: [] };
  const bytes = movable(b);
  return { task: { ...task, bytes }, list: [bytes.buffer as ArrayBuffer] };
}

/** The bytes in a buffer of their own (moved as they are when they fill theirs alone). */
function movable(b: Uint8Array): Uint8Array {
  const own = b.buffer instanceof ArrayBuffer && b.byteOffset === 0 && b.byteLength === b.buffer.byteLength;
  return own ? b : new Uint8Array(b);
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

const shuttingDown = () => new ServiceUnavailableError('The content pool is shutting down; retry');

/** A thread's conversion result → the page, or its error thrown. */
export function settle(out: ContentTaskResult): ConvertedPage {
  if (!out.ok) throw decodeError(out.error);
  const page = { data: out.data, verdict: out.verdict };
  return out.links ? { ...page, links: out.links } : page;
}
