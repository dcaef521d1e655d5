/**
 * robots.txt matching, before and after the compiled matcher: a ~500 KB robots.txt of 20k rules
 * (the hostile-robots probe) checked against 100k URLs (a page of 100k links), plus a hostile file of
 * 20k `/*…` rules, and an adversarial file whose wildcard rules all name parts every URL
 * contains (the worst case the wildcard cap bounds). "Before" is the per-rule regex matcher (the
 * test oracle), timed on a sample and extrapolated to 100k URLs: it needs minutes for the whole
 * set. No network, no stores.
 *
 *   pnpm exec tsx bench/robots.bench.ts [--urls 100000] [--rules 20000] [--sample 500]
 */
import { parseArgs } from 'node:util';
import { canonicalPath, MAX_ROBOTS_BYTES, parseRobots } from '../packages/discovery/src/robots';
import type { RobotsRule } from '../packages/discovery/src/robots-matcher';
import { compileRegexReference } from '../packages/discovery/src/test-support/robots-regex-reference';

const { values } = parseArgs({
  options: {
    urls: { type: 'string', default: '100000' },
    rules: { type: 'string', default: '20000' },
    sample: { type: 'string', default: '500' },
  },
});
const URLS = Number(values.urls);
const RULES = Number(values.rules);
const SAMPLE = Math.min(URLS, Number(values.sample));
const ORIGIN = 'https://hostile.example';

/** The probe's shape (~500 KB): mostly literal directory rules, one in ten with a wildcard. */
function probeRobots(n: number): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < n; i++) {
    if (i % 20 === 0) lines.push(`Disallow: /*?sid=${i}`);
    else if (i % 20 === 1) lines.push(`Disallow: /f${i}/*.pdf$`);
    else lines.push(`${i % 7 === 0 ? 'Allow' : 'Disallow'}: /s-${i % 997}/i-${i}/`);
  }
  return `${lines.join('\n')}\n`;
}

/** Every rule a wildcard right after the first slash: each URL reaches all of them. */
function wildcardRobots(n: number): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < n; i++) lines.push(`Disallow: /*-${i}-*.htm$`);
  return `${lines.join('\n')}\n`;
}

/** Every rule's literal parts occur in every URL: each URL verifies every kept wildcard rule. */
function adversarialRobots(n: number): string {
  const lines = ['User-agent: *'];
  for (let i = 0; i < n; i++) lines.push(`Disallow: /*/page-*.html?ref=${i}`);
  return `${lines.join('\n')}\n`;
}

const urls = Array.from(
  { length: URLS },
  (_, i) => `${ORIGIN}/s-${i % 997}/i-${i % 20_000}/page-${i}.html?ref=list&n=${i}`,
);

function rulesOf(text: string): RobotsRule[] {
  const out: RobotsRule[] = [];
  for (const line of text.split('\n')) {
    const m = /^(Allow|Disallow):\s*(.*)$/.exec(line);
    if (m?.[2]) out.push({ allow: m[1] === 'Allow', pattern: canonicalPath(m[2]) });
  }
  return out;
}

const target = (u: string): string => {
  const p = new URL(u);
  return canonicalPath(`${p.pathname}${p.search}`);
};

function run(name: string, text: string): void {
  const t0 = performance.now();
  const robots = parseRobots(text, `${ORIGIN}/robots.txt`, 'webcontentservice');
  const parseMs = performance.now() - t0;
  const t1 = performance.now();
  let allowedNew = 0;
  for (const u of urls) if (robots.isAllowed(u)) allowedNew++;
  const afterMs = performance.now() - t1;

  const regex = compileRegexReference(rulesOf(text.slice(0, MAX_ROBOTS_BYTES)));
  const t2 = performance.now();
  let agree = 0;
  for (let i = 0; i < SAMPLE; i++) {
    const u = urls[Math.floor((i * URLS) / SAMPLE)] as string;
    if (regex(target(u)) === robots.isAllowed(u)) agree++;
  }
  const sampleMs = performance.now() - t2;
  const beforeMs = (sampleMs / SAMPLE) * URLS;

  const rules = rulesOf(text.slice(0, MAX_ROBOTS_BYTES)).length;
  console.log(`\n${name}: ${(text.length / 1024).toFixed(0)} KiB, ${rules} rules read, ${URLS} URLs`);
  console.log(`  parse + compile                ${parseMs.toFixed(1)} ms`);
  console.log(
    `  before (regex per rule)        ${beforeMs.toFixed(0)} ms  (${(sampleMs / SAMPLE).toFixed(3)} ms/URL over ${SAMPLE} URLs, extrapolated)`,
  );
  console.log(
    `  after  (compiled trie)         ${afterMs.toFixed(0)} ms  (${((afterMs * 1000) / URLS).toFixed(2)} µs/URL, URL parse included; ${allowedNew} allowed)`,
  );
  console.log(`  speed-up                       ×${(beforeMs / afterMs).toFixed(0)}`);
  const ignored = robots.ignoredRules ?? 0;
  console.log(
    `  agreement on the sample        ${agree}/${SAMPLE}${ignored ? ` (${ignored} wildcard rules beyond the cap ignored by the new matcher)` : ''}`,
  );
}

run('probe robots.txt (mostly literal, 10% wildcard)', probeRobots(RULES));
run('hostile robots.txt (every rule /*…)', wildcardRobots(RULES));
run('adversarial (every rule /*…, its parts in every URL)', adversarialRobots(Math.min(RULES, 14_000)));
