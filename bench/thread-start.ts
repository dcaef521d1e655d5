/**
 * A new content thread's first page, as a service meets it after a start or after its pool idled
 * out (CONTENT_POOL_IDLE_MS): each run is a fresh process started with the services' node flags,
 * whose compiled content pool (one thread) converts `pages` real article pages one after the other.
 * Alternates threads loading the build's bundle with its code cache (content-worker.cjs) and threads
 * loading the compiled files, and prints the medians: wall time to the first page's answer (the
 * thread's start included), CPU of the process to then, and the pages after it.
 *
 *   tsx bench/thread-start.ts [--runs 8] [--pages 3]     (also the last section of `pnpm bench:content`)
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { SERVICE_NODE_FLAGS } from '../packages/runtime/src';
import { benchDataDir, decodeBenchPage } from './bench-data';
import { median } from './bench-utils';

const repoRoot = path.resolve(__dirname, '..');

interface Run {
  from: string;
  codeCache: string;
  firstWallMs: number;
  firstCpuMs: number;
  restWallMs: number;
}

/** One fresh process: a one-thread pool of the compiled package converts `files` in order. */
function runOnce(files: string[], threadBundle: boolean): Run {
  // As a service: its database client (which sets a V8 flag at run time) made before the pool.
  const script = `
require(${JSON.stringify(path.join(repoRoot, 'packages/db/dist/db.js'))}).createDb('postgresql://nobody@127.0.0.1:1/none');
const { ContentPool } = require(${JSON.stringify(path.join(repoRoot, 'packages/scraper/dist/content-pool.js'))});
const { readFileSync } = require('node:fs');
const pages = JSON.parse(process.argv[1]).map((f) => readFileSync(f, 'utf8'));
(async () => {
  const pool = new ContentPool({ threads: 1, idleTimeoutMs: 30000, taskTimeoutMs: 60000, heapMb: 1024, threadBundle: ${threadBundle} });
  const task = (body, i) => ({ body, finalUrl: 'https://bench.example/' + i, sourceUrl: 'https://bench.example/' + i,
    statusCode: 200, contentType: 'text/html', headers: {}, format: 'markdown', formats: ['markdown'], onlyMainContent: true });
  const c0 = process.cpuUsage(); const t0 = performance.now();
  await pool.run(task(pages[0], 0));
  const firstWallMs = performance.now() - t0; const c = process.cpuUsage(c0);
  const t1 = performance.now();
  for (let i = 1; i < pages.length; i++) await pool.run(task(pages[i], i));
  const restWallMs = performance.now() - t1;
  const code = await pool.threadCode();
  await pool.close();
  console.log(JSON.stringify({ ...code, firstWallMs, firstCpuMs: (c.user + c.system) / 1000, restWallMs }));
  process.exit(0);
})();`;
  const out = execFileSync(process.execPath, [...SERVICE_NODE_FLAGS, '-e', script, JSON.stringify(files)], {
    cwd: path.join(repoRoot, 'packages/scraper'),
    encoding: 'utf8',
  });
  return JSON.parse(out.trim().split('\n').pop() ?? '{}') as Run;
}

/** The section: alternated runs, medians, the bundle's figures against the files'. */
export function threadStartLines(opts: { runs: number; pages: number }): void {
  const dir = path.join(benchDataDir(['article-extraction']), 'article-extraction/html');
  const tmp = path.join(repoRoot, 'bench/out');
  // The article set's first pages, decoded once into plain files the children read.
  const files = readdirSync(dir)
    .sort()
    .slice(0, opts.pages)
    .map((f, i) => {
      const to = path.join(tmp, `thread-start-${i}.html`);
      writeFileSync(to, decodeBenchPage(gunzipSync(readFileSync(path.join(dir, f)))));
      return to;
    });
  const runs: Record<'bundle' | 'files', Run[]> = { bundle: [], files: [] };
  for (let i = 0; i < opts.runs; i++) {
    runs.bundle.push(runOnce(files, true));
    runs.files.push(runOnce(files, false));
  }
  const row = (name: string, rs: Run[]) => {
    const code = [...new Set(rs.map((r) => `${r.from}, code cache ${r.codeCache}`))].join(' / ');
    return `| ${name} (${code}) | ${median(rs.map((r) => r.firstWallMs)).toFixed(1)} | ${median(rs.map((r) => r.firstCpuMs)).toFixed(1)} | ${median(rs.map((r) => r.restWallMs)).toFixed(1)} |`;
  };
  console.log(
    `\nA new content thread's first page (${opts.runs} fresh processes each, alternated; services' node flags; ${opts.pages} real article pages, one at a time):`,
  );
  console.log(
    `| thread code | first page, wall ms (thread start included) | process CPU to then, ms | the next ${opts.pages - 1} pages, wall ms |`,
  );
  console.log('|---|---:|---:|---:|');
  console.log(row('bundle', runs.bundle));
  console.log(row('compiled files', runs.files));
  const ratio = median(runs.files.map((r) => r.firstWallMs)) / median(runs.bundle.map((r) => r.firstWallMs));
  console.log(`first page: bundle ${ratio.toFixed(2)}× faster than the compiled files`);
}

if (require.main === module) {
  const { values } = parseArgs({
    options: { runs: { type: 'string', default: '8' }, pages: { type: 'string', default: '3' } },
  });
  threadStartLines({ runs: Number(values.runs), pages: Number(values.pages) });
}
