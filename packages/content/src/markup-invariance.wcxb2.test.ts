/** The WCXB sample of the markup-invariance property test, half 2: see markup-invariance.test.ts. */
import {
  checkPages,
  REWRITES_PER_PAGE,
  report,
  SEED,
  WCXB_SAMPLE,
  wcxbPages,
  wcxbSample,
} from './test-support/markup-invariance';

describe('markup-only rewrites keep the monitor hash (property, seeded): WCXB second', () => {
  it(`wcxb-dev: second half of a fixed sample of up to ${WCXB_SAMPLE} pages`, () => {
    const t0 = Date.now();
    const o = checkPages(wcxbPages(1), SEED + 200000);
    report('wcxb-dev second half', o, Date.now() - t0);
    // the half of the sample (150 pages of the full set, 21 of the vendored one), each checked
    const size = wcxbSample().length;
    expect(size).toBeGreaterThanOrEqual(42);
    expect(o.pages).toBe(size - Math.ceil(size / 2));
    expect(o.rewrites).toBeGreaterThanOrEqual(o.pages * REWRITES_PER_PAGE);
    expect(o.failures).toEqual([]);
  }, 120_000);
});
