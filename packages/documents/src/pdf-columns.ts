/**
 * Two-column pages: text left of a clear gutter is read before text right of it. Without this,
 * sorting by height interleaves the columns line by line. Conservative: a gutter counts only
 * when no text crosses it where both columns have text, each side holds at least 5 lines, and
 * those lines are wide (a table's short cells stay in row order). Text above or below the
 * columns (title, running header/footer) keeps its place.
 */

export interface TextRun {
  str: string;
  x: number;
  y: number;
  width: number;
  size: number;
}

const MIN_LINES = 5;
/** Bounds of the search (each candidate is a pass over the page's runs). */
const MAX_RUNS = 20_000;
const MAX_CANDIDATES = 100;
/** A column's lines average at least this share of the page's text width. */
const MIN_WIDTH_SHARE = 0.3;

function lineWidths(runs: TextRun[]): number[] {
  const byY = new Map<number, { left: number; right: number }>();
  for (const r of runs) {
    const k = Math.round(r.y);
    const e = byY.get(k);
    if (e) {
      e.left = Math.min(e.left, r.x);
      e.right = Math.max(e.right, r.x + r.width);
    } else byY.set(k, { left: r.x, right: r.x + r.width });
  }
  return [...byY.values()].map((e) => e.right - e.left);
}

function wideEnough(runs: TextRun[], pageWidth: number): boolean {
  const widths = lineWidths(runs);
  if (widths.length < MIN_LINES) return false;
  return widths.reduce((a, b) => a + b, 0) / widths.length >= pageWidth * MIN_WIDTH_SHARE;
}

/** [above, left column, right column, below], or null when the page is not two columns. */
function splitAt(runs: TextRun[], g: number, pageWidth: number): TextRun[][] | null {
  const left = runs.filter((r) => r.x + r.width <= g);
  const right = runs.filter((r) => r.x >= g);
  if (left.length < MIN_LINES || right.length < MIN_LINES) return null;
  const maxY = (rs: TextRun[]) => rs.reduce((m, r) => Math.max(m, r.y), Number.NEGATIVE_INFINITY);
  const minY = (rs: TextRun[]) => rs.reduce((m, r) => Math.min(m, r.y), Number.POSITIVE_INFINITY);
  // The band where both columns have text.
  const top = Math.min(maxY(left), maxY(right));
  const bottom = Math.max(minY(left), minY(right));
  const inBand = (r: TextRun) => r.y <= top + 0.5 && r.y >= bottom - 0.5;
  const above = runs.filter((r) => r.y > top + 0.5);
  const below = runs.filter((r) => r.y < bottom - 0.5);
  const band = runs.filter(inBand);
  if (band.some((r) => r.x < g && r.x + r.width > g)) return null;
  const bandLeft = band.filter((r) => r.x + r.width <= g);
  const bandRight = band.filter((r) => r.x >= g);
  if (!wideEnough(bandLeft, pageWidth) || !wideEnough(bandRight, pageWidth)) return null;
  return [above, bandLeft, bandRight, below];
}

/** The page's runs in groups to read one after the other (each group is then read by lines). */
export function readingGroups(runs: TextRun[]): TextRun[][] {
  if (runs.length < MIN_LINES * 2 || runs.length > MAX_RUNS) return [runs];
  const minX = runs.reduce((m, r) => Math.min(m, r.x), Number.POSITIVE_INFINITY);
  const maxX = runs.reduce((m, r) => Math.max(m, r.x + r.width), Number.NEGATIVE_INFINITY);
  const width = maxX - minX;
  if (width <= 0) return [runs];
  // Gutter candidates: the start of every run in the middle 40% of the page's text width.
  const candidates = [...new Set(runs.map((r) => r.x))]
    .filter((x) => x > minX + width * 0.3 && x < minX + width * 0.7)
    .sort((a, b) => a - b)
    .slice(0, MAX_CANDIDATES);
  for (const g of candidates) {
    const groups = splitAt(runs, g, width);
    if (groups) return groups.filter((gr) => gr.length > 0);
  }
  return [runs];
}
