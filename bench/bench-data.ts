/**
 * Where the benchmark pages are: BENCH_DIR, else ../shared/bench next to the repository. When the
 * folder or a set a bench needs is missing, one line says where to get them (no stack trace).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { rawEnv } from '@wcs/config';

const WHERE =
  'article-extraction/ is github.com/scrapinghub/article-extraction-benchmark (MIT), wcxb-dev/ the dev split of ' +
  'WCXB, the Web Content eXtraction Benchmark (CC-BY-4.0); layout and a small sample in ' +
  'packages/content/test-data/bench-sample/README.md';

/**
 * The benchmark folder holding `need` (e.g. 'article-extraction', 'score.mjs'); exits 2 when absent,
 * unless `sample` names a folder of the same layout to use instead (said in one line).
 */
export function benchDataDir(need: string[], opts: { sample?: string } = {}): string {
  const dir = rawEnv('BENCH_DIR') ?? path.resolve(__dirname, '../../shared/bench');
  const missing = need.filter((n) => !existsSync(path.join(dir, n)));
  if (missing.length > 0 && opts.sample) {
    console.log(`(full sets missing in ${dir}: using the sample ${opts.sample})`);
    return opts.sample;
  }
  if (missing.length > 0) {
    console.error(`bench: ${missing.join(', ')} missing in ${dir}; set BENCH_DIR to the full sets: ${WHERE}`);
    process.exit(2);
  }
  return dir;
}

/** Page bytes to text: the charset the page declares in its first 2 KB, else UTF-8. */
export function decodeBenchPage(buf: Buffer): string {
  const head = buf.subarray(0, 2048).toString('latin1');
  const cs = (/charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1] ?? 'utf-8').toLowerCase();
  try {
    return new TextDecoder(cs).decode(buf);
  } catch {
    return buf.toString('utf8');
  }
}
