import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { findWallClockBounds } from './wall-clock-bounds';

/**
 * No test asserts a wall-clock upper bound (a busy machine makes it fail): every test source of the
 * repository is scanned, and each bound is reported as file:line. Assert what the code enforces
 * (its error kind, the budget its message names, a counter); print speed in `bench/*.bench.ts`.
 */
const ROOT = join(__dirname, '..', '..');
const TREES = ['packages', 'services', 'tests'];
/** This file quotes bounds as samples for the scanner. */
const SELF = relative(ROOT, __filename);

function* sources(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts')) yield path;
  }
}

describe('no wall-clock upper bounds in tests', () => {
  it('finds the forms a timed bound takes, and leaves lower bounds and sizes alone', () => {
    const bounds = [
      'expect(Date.now() - started).toBeLessThan(5_000);',
      'expect(performance.now() - t0).toBeLessThan(1_000);',
      'expect(took).toBeLessThan(2_000);',
      'expect(elapsed).toBeLessThan(3_000 + 2_000);',
      'expect(result.ms).toBeLessThan(1_000);',
      'expect(worstLagMs).toBeLessThan(1_000);',
      'expect(releasedMs).toBeLessThanOrEqual(2_000);',
      'expect((seen?.abortedAt ?? 0) - gaveUpAt).toBeLessThan(1_000);',
      'expect(closedAt - closeStarted).toBeLessThan(10_000);',
      'expect(attemptsSpanMs(attempts)).toBeLessThan(9_000);',
      'expect(\n  Date.now() - t0,\n).toBeLessThan(3_000);',
      'expect(ms).not.toBeGreaterThan(1_000);',
      'expect(Date.now() - t0 < 1_000).toBe(true);',
    ];
    for (const b of bounds) expect([b, findWallClockBounds(b).length]).toEqual([b, 1]);
    const fine = [
      'expect(took).toBeGreaterThanOrEqual(290);',
      'expect(res.links.length).toBeLessThan(URLS);',
      'expect(process.memoryUsage().heapUsed - before).toBeLessThan(150 * MB);',
      'expect(items.length).toBeLessThan(10);',
      'expect(seen?.deadlineAt).toBeLessThanOrEqual(gaveUpAt + 50);',
      'expect(row.expiresAt.getTime()).toBeLessThanOrEqual(savedBy + HOUR);',
      "expect(Date.parse(d.nextCheckAt ?? '')).toBeLessThan(Date.now());",
      'expect(format).toBe(true);',
    ];
    for (const f of fine) expect([f, findWallClockBounds(f)]).toEqual([f, []]);
    expect(findWallClockBounds('const a = 1;\n\nexpect(took).toBeLessThan(5);')).toEqual([
      { line: 3, text: 'expect(took).toBeLessThan(5);' },
    ]);
  });

  it('none in the repository', () => {
    const found: string[] = [];
    for (const tree of TREES) {
      for (const file of sources(join(ROOT, tree))) {
        const text = readFileSync(file, 'utf8');
        if (relative(ROOT, file) === SELF || !text.includes('expect(')) continue;
        for (const b of findWallClockBounds(text)) found.push(`${relative(ROOT, file)}:${b.line}: ${b.text}`);
      }
    }
    expect(found).toEqual([]);
  });
});
