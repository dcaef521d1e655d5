/**
 * Running headers/footers and page numbers (for `onlyMainContent`): lines near a page's top or
 * bottom that repeat across pages at the same height (digits ignored: "Page 3 of 9" repeats as
 * "Page # of #"), and lone page numbers there.
 */
import type { PdfLine } from './pdf-layout';

/** How many lines from each edge of a page can be running text. */
const EDGE_LINES = 3;
const PAGE_NUMBER = /^(?:page\s*)?[-–—]?\s*\d{1,5}\s*[-–—]?(?:\s*(?:of|\/)\s*\d{1,5})?$/i;

/** A running line repeats its words (digits aside) at the same height of the page. */
function shape(l: PdfLine): string {
  return `${Math.round(l.y / 4)}|${l.text.toLowerCase().replace(/\d+/g, '#').replace(/\s+/g, ' ').trim()}`;
}

function edgeIndexes(n: number): number[] {
  const out = new Set<number>();
  for (let i = 0; i < Math.min(EDGE_LINES, n); i++) {
    out.add(i);
    out.add(n - 1 - i);
  }
  return [...out];
}

/** The same line exactly (digits too) at the same height: "Confidential", a report's title. */
function exact(l: PdfLine): string {
  return `${Math.round(l.y / 4)}|${l.text.toLowerCase().replace(/\s+/g, ' ').trim()}`;
}

function repeats(pages: PdfLine[][], key: (l: PdfLine) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const seen = new Set<string>();
    for (const i of edgeIndexes(page.length)) seen.add(key(page[i]!));
    for (const s of seen) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  return counts;
}

/**
 * A page is never emptied: when every line of it looks running (a one-line page of "Body of page
 * 7." repeats its shape on every page), only exact repeats and page numbers go; and when even that
 * would leave nothing, only the page numbers.
 */
export function dropRunningLines(pages: PdfLine[][]): PdfLine[][] {
  const shapes = repeats(pages, shape);
  const exacts = repeats(pages, exact);
  // Repeats on at least half of the pages (and on two at least).
  const min = Math.max(2, Math.ceil(pages.length / 2));
  const keep = (page: PdfLine[], dropped: (l: PdfLine) => boolean) => {
    const edges = new Set(edgeIndexes(page.length));
    return page.filter((l, i) => !(edges.has(i) && (PAGE_NUMBER.test(l.text) || dropped(l))));
  };
  return pages.map((page) => {
    const byShape = keep(page, (l) => (shapes.get(shape(l)) ?? 0) >= min);
    if (byShape.length > 0 || page.length === 0) return byShape;
    const byText = keep(page, (l) => (exacts.get(exact(l)) ?? 0) >= min);
    return byText.length > 0 ? byText : keep(page, () => false);
  });
}
