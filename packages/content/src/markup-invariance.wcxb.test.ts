/** The WCXB sample of the markup-invariance property test, half 1: see markup-invariance.test.ts. */
import { checkPages, haveBench, report, SEED, WCXB_SAMPLE, wcxbPages } from './markup-invariance.fixture';

const suite = haveBench ? describe : describe.skip;

suite('markup-only rewrites keep the monitor hash (property, seeded): WCXB first', () => {
  it(`wcxb-dev: first half of a fixed sample of ${WCXB_SAMPLE} pages`, () => {
    const t0 = Date.now();
    const o = checkPages(wcxbPages(0), SEED + 100000);
    report('wcxb-dev first half', o, Date.now() - t0);
    expect(o.pages).toBe(WCXB_SAMPLE / 2);
    expect(o.failures).toEqual([]);
  }, 120_000);
});
