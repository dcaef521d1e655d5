import { processDocument } from '../document.processor';
import { HELDOUT_DIR, loadVerdictTraps, trapDocument, trapOutcome } from '../test-support/verdict-traps';

// The held-out set (test-data/verdict-heldout): written before its author read the rules, so it
// measures pages the rules were not written from. Its pages are never edited to pass.
const traps = loadVerdictTraps(HELDOUT_DIR);
const judged = traps.map((trap) => {
  const { doc, headers } = trapDocument(trap, HELDOUT_DIR);
  return { trap, outcome: trapOutcome(trap, processDocument(doc, { formats: ['markdown'], headers })) };
});

describe('verdict held-out set', () => {
  it('holds at least 40 traps and 40 hard negatives', () => {
    expect(judged.filter((j) => j.trap.expect.verdict !== 'content').length).toBeGreaterThanOrEqual(40);
    expect(judged.filter((j) => j.trap.expect.verdict === 'content').length).toBeGreaterThanOrEqual(40);
  });

  it('catches at least 90 % of its traps with the right verdict', () => {
    const walls = judged.filter((j) => j.trap.expect.verdict !== 'content');
    const missed = walls.filter((j) => !j.outcome.verdict).map((j) => `${j.trap.id}: ${j.outcome.got}`);
    expect(missed.length / walls.length).toBeLessThanOrEqual(0.1);
  });

  it('keeps every hard negative as content', () => {
    const lost = judged
      .filter((j) => j.trap.expect.verdict === 'content' && !j.outcome.verdict)
      .map((j) => `${j.trap.id}: ${j.outcome.got}`);
    expect(lost).toEqual([]);
  });
});
