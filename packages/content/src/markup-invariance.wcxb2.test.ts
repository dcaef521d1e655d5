/** The WCXB sample of the markup-invariance property test, half 2: see markup-invariance.test.ts. */
import { checkPages, haveBench, report, SEED, WCXB_SAMPLE, wcxbPages } from './markup-invariance.fixture';

const suite = haveBench ? describe : describe.skip;

suite('markup-only rewrites keep the monitor hash (property, seeded): WCXB second', () => {
  it(`wcxb-dev: second half of a fixed sample of ${WCXB_SAMPLE} pages`, () => {
    const t0 = Date.now();
    const o = checkPages(wcxbPages(1), SEED + 200000);
    report('wcxb-dev second half', o, Date.now() - t0);
    expect(o.pages).toBe(WCXB_SAMPLE / 2);
    expect(o.failures).toEqual([]);
  }, 120_000);
});
