/**
 * `pnpm bench:footprint`'s flatness check: how much a series of per-batch peaks grew over its span,
 * read off their least-squares line (one noisy batch neither hides nor fakes a trend).
 */
/** Growth of `peaks` over their span, by their least-squares line, as a share of its start. */
export function peakGrowth(peaks: number[]): { start: number; end: number; share: number } {
  const n = peaks.length;
  const xMean = (n - 1) / 2;
  const yMean = peaks.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of peaks.entries()) {
    num += (x - xMean) * (y - yMean);
    den += (x - xMean) ** 2;
  }
  const slope = den > 0 ? num / den : 0;
  const start = yMean - slope * xMean;
  const end = start + slope * (n - 1);
  return { start, end, share: start > 0 ? (end - start) / start : 0 };
}
