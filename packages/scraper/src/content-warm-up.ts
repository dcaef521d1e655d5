/**
 * A new content thread's first pages run on cold code: V8 interprets, then compiles, every function
 * of the pipeline while it converts them (the first real pages after a worker starts cost ~1.5× the
 * CPU of later ones, bench:scrape "cold"). A warm-up converts built-in pages (content-warm-up-pages.ts)
 * through the path fetched pages take (decode, JavaScript and wall checks, conversion, cache
 * compression) as soon as the pool starts its threads, so the first real pages find the code
 * loaded and much of it compiled. One page per task: a page handed over meanwhile waits for at
 * most one warm-up page, not for the whole warm-up.
 */
import { runRawPageTask } from './content.task';
import { warmUpPage } from './content-warm-up-pages';

/** What a content thread is handed to warm up (instead of a page): which built-in page to convert. */
export interface WarmUpTask {
  warmUp: number;
}

export const isWarmUpTask = (task: object): task is WarmUpTask =>
  typeof (task as Partial<WarmUpTask>).warmUp === 'number';

/** Convert built-in page `page` as a fetched page (bytes in, every check, markdown out). */
export function warmUp(page: number): void {
  const bytes = Buffer.from(warmUpPage(page), 'utf8');
  const url = `https://warm-up.example/page/${page}`;
  runRawPageTask({
    raw: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    contentTypeHeader: 'text/html; charset=utf-8',
    body: '',
    contentType: 'text/html',
    finalUrl: url,
    sourceUrl: url,
    statusCode: 200,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    format: 'markdown',
    onlyMainContent: true,
    links: page % 2 === 0,
    formats: ['markdown'],
    jsCheck: true,
    cacheBody: true,
  });
}
