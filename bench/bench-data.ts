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

/** The benchmark folder holding `need` (e.g. 'article-extraction', 'score.mjs'); exits 2 when absent. */
export function benchDataDir(need: string[]): string {
  const dir = rawEnv('BENCH_DIR') ?? path.resolve(__dirname, '../../shared/bench');
  const missing = need.filter((n) => !existsSync(path.join(dir, n)));
  if (missing.length > 0) {
    console.error(`bench: ${missing.join(', ')} missing in ${dir}; set BENCH_DIR to the full sets: ${WHERE}`);
    process.exit(2);
  }
  return dir;
}
