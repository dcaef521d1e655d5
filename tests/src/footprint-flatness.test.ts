/**
 * `pnpm bench:footprint`'s flatness check (bench/peak-growth.ts), on series shaped like the runs:
 * a warm-up batch then a plateau is flat once the warm-up is left out; a steady leak is not.
 */
import { peakGrowth } from '../../bench/peak-growth';

it('a plateau with noise is flat; the same plateau with a steady leak is not', () => {
  const plateau = [371, 378, 369, 380, 374, 376, 372, 379, 375];
  expect(Math.abs(peakGrowth(plateau).share)).toBeLessThan(0.02);
  // 6 MB a batch on ~370 MB: about +13 % over nine batches.
  const leaking = plateau.map((mb, i) => mb + 6 * i);
  expect(peakGrowth(leaking).share).toBeGreaterThan(0.1);
});

it('reads the trend, not the last batch alone: one high batch at the end does not make a leak', () => {
  const g = peakGrowth([370, 372, 371, 369, 373, 370, 372, 371, 400]);
  expect(g.share).toBeLessThan(0.05);
  expect(g.share).toBeGreaterThan(0);
});
