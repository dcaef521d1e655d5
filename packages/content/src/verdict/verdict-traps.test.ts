import { processDocument } from '../document.processor';
import { loadVerdictTraps, trapDocument, trapOutcome } from '../test-support/verdict-traps';
import { detectBlock } from './block-signals';

// The whole trap set (test-data/verdict-traps) through the real pipeline, as `pnpm bench:verdicts` runs it.
const traps = loadVerdictTraps();
const judged = traps.map((trap) => {
  const { doc, headers } = trapDocument(trap);
  return {
    trap,
    doc,
    headers,
    outcome: trapOutcome(trap, processDocument(doc, { formats: ['markdown'], headers })),
  };
});

describe('verdict trap set', () => {
  it('holds at least 50 pages, walls of every vendor and hard negatives among them', () => {
    expect(traps.length).toBeGreaterThanOrEqual(50);
    const vendors = new Set(traps.map((t) => t.expect.vendor).filter(Boolean));
    for (const v of [
      'cloudflare',
      'akamai',
      'datadome',
      'perimeterx',
      'imperva',
      'aws-waf',
      'ddos-guard',
      'sucuri',
      'kasada',
      'f5',
    ])
      expect(vendors).toContain(v);
    expect(traps.filter((t) => t.expect.verdict === 'content').length).toBeGreaterThanOrEqual(10);
  });

  it('catches at least 95 % of the traps with the right verdict, reason, vendor and shown status', () => {
    const walls = judged.filter((j) => j.trap.expect.verdict !== 'content');
    const missed = walls.filter((j) => !j.outcome.detail).map((j) => `${j.trap.id}: ${j.outcome.got}`);
    expect(missed.length / walls.length).toBeLessThanOrEqual(0.05);
  });

  it('keeps every hard negative as content', () => {
    const lost = judged
      .filter((j) => j.trap.expect.verdict === 'content' && !j.outcome.verdict)
      .map((j) => `${j.trap.id}: ${j.outcome.got}`);
    expect(lost).toEqual([]);
  });

  it('recognises the vendor walls from the raw answer alone, before conversion (detectBlock)', () => {
    const walls = judged.filter((j) => j.trap.expect.verdict === 'blocked');
    const seen = walls.filter((j) => {
      const block = detectBlock({ statusCode: j.trap.statusCode, headers: j.headers, body: j.doc.body });
      return block?.reason === j.trap.expect.reason && block?.vendor === j.trap.expect.vendor;
    });
    expect(seen.length / walls.length).toBeGreaterThanOrEqual(0.95);
    for (const j of judged.filter((x) => x.trap.expect.verdict === 'content'))
      expect(
        detectBlock({ statusCode: j.trap.statusCode, headers: j.headers, body: j.doc.body }),
      ).toBeUndefined();
  });
});
