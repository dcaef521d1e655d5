/** The WCXB half of the markup-invariance property test: see markup-invariance.test.ts. */
import { checkPages, haveBench, report, SEED, WCXB_SAMPLE, wcxbPages } from './markup-invariance.fixture';

const suite = haveBench ? describe : describe.skip;

suite('markup-only rewrites keep the monitor hash (property, seeded): WCXB', () => {
  it(`wcxb-dev: a fixed sample of ${WCXB_SAMPLE} pages`, () => {
    const t0 = Date.now();
    const o = checkPages(wcxbPages(), SEED + 100_000);
    report('wcxb-dev', o, Date.now() - t0);
    expect(o.pages).toBe(WCXB_SAMPLE);
    expect(o.failures).toEqual([]);
  }, 120_000);
});
