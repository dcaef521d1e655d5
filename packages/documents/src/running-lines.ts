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

export function dropRunningLines(pages: PdfLine[][]): PdfLine[][] {
  const counts = new Map<string, number>();
  for (const page of pages) {
    const seen = new Set<string>();
    for (const i of edgeIndexes(page.length)) seen.add(shape(page[i]!));
    for (const s of seen) counts.set(s, (counts.get(s) ?? 0) + 1);
  }
  // Repeats on at least half of the pages (and on two at least).
  const min = Math.max(2, Math.ceil(pages.length / 2));
  return pages.map((page) => {
    const drop = new Set<number>();
    for (const i of edgeIndexes(page.length)) {
      const l = page[i]!;
      if (PAGE_NUMBER.test(l.text) || (counts.get(shape(l)) ?? 0) >= min) drop.add(i);
    }
    return page.filter((_, i) => !drop.has(i));
  });
}
