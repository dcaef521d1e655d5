/**
 * Runs every ```js example of packages/client-node/README.md as its own Node program (ESM, or
 * CommonJS when it uses require) against the real service, with `https://example.com` pointed at
 * the local fixture site — so the README cannot rot.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type ClientStack, startClientStack } from './client-stack';

const ROOT = path.join(__dirname, '../../..');
// Inside tests/ so `@wcs/client-node` resolves through tests/node_modules, like an installed package.
const WORK_DIR = path.join(ROOT, 'tests/.examples');

function readmeExamples(): Array<{ index: number; heading: string; code: string }> {
  const readme = readFileSync(path.join(ROOT, 'packages/client-node/README.md'), 'utf8');
  const out: Array<{ index: number; heading: string; code: string }> = [];
  let heading = '';
  const fence = /^```(\w*)\n([\s\S]*?)^```$/gm;
  let last = 0;
  for (let m = fence.exec(readme); m; m = fence.exec(readme)) {
    const before = readme.slice(last, m.index).match(/^#+ .*$/gm);
    if (before) heading = before.at(-1)!.replace(/^#+ /, '');
    last = m.index;
    if (m[1] === 'js') out.push({ index: out.length + 1, heading, code: m[2]! });
  }
  return out;
}

function runNode(
  file: string,
  env: Record<string, string>,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: WORK_DIR, env: { ...process.env, ...env } });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

const examples = readmeExamples();

describe('packages/client-node/README.md examples', () => {
  let s: ClientStack;

  beforeAll(async () => {
    s = await startClientStack({ browser: true }); // the page-options example takes a screenshot
    rmSync(WORK_DIR, { recursive: true, force: true });
    mkdirSync(WORK_DIR, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('has an example for every client method', () => {
    const all = examples.map((e) => e.code).join('\n');
    for (const method of [
      'scrape',
      'crawlAndWait',
      'startCrawl',
      'getCrawlStatus',
      'cancelCrawl',
      'map',
      'search',
      'extract',
      'createMonitor',
      'listMonitors',
      'getMonitor',
      'deleteMonitor',
      'getWebhookSecret',
      'batchScrapeAndWait',
      'startBatchScrape',
      'getBatchScrapeStatus',
      'cancelBatchScrape',
      'pauseMonitor',
      'resumeMonitor',
      'account',
      'usage',
      'ledger',
      'ledgerCsv',
      'listKeys',
      'createKey',
      'revokeKey',
      'listBatches',
      'batchResults',
      'batchResult',
      'listCrawls',
      'crawlResults',
      'crawlResult',
      'screenshot',
    ]) {
      expect(all).toMatch(new RegExp(`client\\.${method}\\(|\\)\\.${method}\\(`));
    }
    expect(examples.some((e) => e.code.includes("require('@wcs/client-node')"))).toBe(true);
  });

  it.each(examples.map((e) => [`${e.index}: ${e.heading}`, e] as const))(
    'example %s runs',
    async (_name, example) => {
      const commonJs = example.code.includes('require(');
      const file = path.join(WORK_DIR, `example-${example.index}.${commonJs ? 'cjs' : 'mjs'}`);
      writeFileSync(file, example.code.replaceAll('https://example.com', s.site.url));
      const res = await runNode(file, s.clientEnv);
      if (res.code !== 0)
        throw new Error(`example ${example.index} exited ${res.code}:\n${res.err}\n${res.out}`);
      expect(res.err).toBe('');
      expect(res.out.trim().length).toBeGreaterThan(0);
    },
    90_000,
  );
});
