import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { runRawPageTask } from '../packages/scraper/src/content.task';
const dir = '/work/shared/bench/article-extraction/html';
const pages = readdirSync(dir).filter((n) => n.endsWith('.html.gz')).map((f) => gunzipSync(readFileSync(path.join(dir, f))));
const passes = Number(process.argv[2] ?? 5);
for (let p = 0; p < passes; p++) {
  console.log(`=== PASS ${p}`);
  const t0 = process.cpuUsage();
  const w0 = performance.now();
  for (let i = 0; i < pages.length; i++) {
    const b = pages[i]!;
    const url = `https://bench.example/page/${i}.html`;
    runRawPageTask({ raw: new Uint8Array(b.buffer, b.byteOffset, b.byteLength), contentTypeHeader: 'text/html; charset=utf-8', body: '', contentType: 'text/html', finalUrl: url, sourceUrl: url, statusCode: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, format: 'markdown', onlyMainContent: true, links: false, formats: ['markdown'], jsCheck: true, cacheBody: true } as never);
  }
  const c = process.cpuUsage(t0);
  console.error(`pass ${p}: wall ${(performance.now() - w0).toFixed(0)} ms, cpu ${((c.user + c.system) / 1000).toFixed(0)} ms`);
}
