/**
 * Optional OCR of PDF pages without a text layer: `pdftoppm` renders the page to PNG and Debian's
 * `tesseract` reads it. Used only when enabled and both tools are on PATH; every child process
 * is killed on abort, past its per-page timeout and past the conversion's deadline (the content
 * pool terminates its thread on the budget, and a child must not outlive that).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { escapeText } from './html-escape';

export interface OcrOptions {
  enabled: boolean;
  /** tesseract `-l` value, e.g. `eng` or `eng+deu`. */
  languages: string;
  /** Epoch ms past which no child process may still run (the conversion's budget). */
  deadlineAt?: number;
  signal?: AbortSignal;
  /**
   * A cell over a SharedArrayBuffer where the engine keeps the pid of the tool running now (0
   * when none): the content pool, which cannot signal into a thread it terminates (a cancelled
   * job), stops that process itself.
   */
  processSlot?: Int32Array;
  /** The temp dir to use (created here, mode 0700); the pool removes it too when it ends the thread. */
  workDir?: string;
}

/** One page's render + read at most (the deadline may cut it shorter). */
export const OCR_PAGE_TIMEOUT_MS = 30_000;

let available: boolean | undefined;

function onPath(tool: string): boolean {
  const r = spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
  return r.status === 0;
}

/** Both tools installed (checked once per thread). */
export function ocrToolsAvailable(): boolean {
  available ??= onPath('pdftoppm') && onPath('tesseract') && onPath('timeout');
  return available;
}

export function ocrUsable(o: OcrOptions | undefined): o is OcrOptions {
  return o?.enabled === true && ocrToolsAvailable();
}

/** Languages as tesseract takes them: letters, digits, `_` joined by `+` (nothing else reaches argv). */
function languages(raw: string): string {
  const parts = raw.split(/[+,\s]+/).filter((p) => /^[A-Za-z0-9_]+$/.test(p));
  return parts.length > 0 ? parts.join('+') : 'eng';
}

function run(cmd: string, args: string[], o: OcrOptions): Promise<string> {
  o.signal?.throwIfAborted();
  const left = o.deadlineAt === undefined ? OCR_PAGE_TIMEOUT_MS : o.deadlineAt - Date.now();
  if (left <= 0) return Promise.reject(new Error('OCR deadline passed'));
  return new Promise((resolve, reject) => {
    const limitMs = Math.min(OCR_PAGE_TIMEOUT_MS, left);
    // coreutils `timeout` kills the tool at the deadline even when the content pool has terminated
    // this thread (its JS timers and signal die with it; the process would not). It forwards the
    // SIGTERM that an abort or Node's own timeout sends it.
    const child = spawn('timeout', ['-s', 'KILL', (limitMs / 1000).toFixed(3), cmd, ...args], {
      detached: false,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: limitMs,
      killSignal: 'SIGTERM',
      ...(o.signal ? { signal: o.signal } : {}),
    });
    if (o.processSlot) Atomics.store(o.processSlot, 0, child.pid ?? 0);
    const out: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.on('error', reject);
    child.on('close', (code, sig) => {
      if (o.processSlot) Atomics.store(o.processSlot, 0, 0);
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new Error(`${cmd} ended with ${sig ?? `code ${code}`}`));
    });
  });
}

/** OCR text → paragraphs (blank lines separate them; lines inside one are joined). */
export function ocrHtml(text: string): string {
  return text
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s*\n\s*/g, ' ').trim())
    .filter((p) => p !== '')
    .map((p) => `<p>${escapeText(p)}</p>`)
    .join('\n');
}

/**
 * Reads the given pages (1-based), one at a time; the text of each, by page number. Stops at
 * the first failure (abort, deadline, tool error) and rethrows it; the temp dir always goes.
 */
export async function ocrPages(
  bytes: Uint8Array,
  pages: number[],
  o: OcrOptions,
): Promise<Map<number, string>> {
  let dir: string;
  if (o.workDir) {
    await mkdir(o.workDir, { mode: 0o700 });
    dir = o.workDir;
  } else dir = await mkdtemp(path.join(tmpdir(), 'wcs-ocr-'));
  const texts = new Map<number, string>();
  try {
    const file = path.join(dir, 'in.pdf');
    await writeFile(file, bytes, { mode: 0o600 });
    const lang = languages(o.languages);
    for (const n of pages) {
      const prefix = path.join(dir, `p${n}`);
      await run('pdftoppm', ['-r', '150', '-png', '-f', String(n), '-l', String(n), file, prefix], o);
      // pdftoppm pads the page number in the name (p1-1.png, p1-01.png…): find it.
      const png = (await readdir(dir)).find((f) => f.startsWith(`p${n}-`) && f.endsWith('.png'));
      if (!png) throw new Error(`pdftoppm wrote no image of page ${n}`);
      texts.set(n, await run('tesseract', [path.join(dir, png), '-', '-l', lang], o));
      await rm(path.join(dir, png), { force: true });
    }
    return texts;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
