/**
 * The 181 real news/blog pages of `shared/bench/article-extraction` (gzipped HTML) served over
 * local HTTP, one URL per page (`/page/<id>.html`, any query string ignored), as UTF-8
 * (`content-type: text/html; charset=utf-8`; a page in another charset is decoded by the charset it
 * declares and re-encoded). BENCH_DIR overrides the benchmark folder (default ../shared/bench).
 */

import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { benchDataDir, decodeBenchPage } from './bench-data';

export interface ArticleSite {
  url: string;
  /** One absolute URL per page, in file-name order. */
  urls: string[];
  /** Bytes served per page (UTF-8), summed. */
  bytes: number;
  /** Bytes served by each URL of `urls`, in the same order. */
  sizes: number[];
  close(): Promise<void>;
}

export function articleBenchDir(): string {
  return path.join(benchDataDir(['article-extraction']), 'article-extraction');
}

/** Starts the server; `limit` keeps the first N pages. */
export async function startArticleSite(limit = Number.POSITIVE_INFINITY): Promise<ArticleSite> {
  const dir = path.join(articleBenchDir(), 'html');
  const pages = new Map<string, Buffer>();
  for (const f of readdirSync(dir)
    .filter((n) => n.endsWith('.html.gz'))
    .sort()
    .slice(0, limit)) {
    const html = decodeBenchPage(gunzipSync(readFileSync(path.join(dir, f))));
    pages.set(`/page/${f.slice(0, -'.gz'.length)}`, Buffer.from(html, 'utf8'));
  }
  const server = createServer((req, res) => {
    const body = pages.get((req.url ?? '/').split('?')[0] ?? '/');
    if (!body) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length });
    res.end(body);
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    urls: [...pages.keys()].map((p) => `${url}${p}`),
    bytes: [...pages.values()].reduce((s, b) => s + b.length, 0),
    sizes: [...pages.values()].map((b) => b.length),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
