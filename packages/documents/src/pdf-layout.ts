/**
 * A PDF page's text items → lines → HTML blocks. Reading order comes from the items' positions
 * (top to bottom, then left to right), headings from font sizes clearly above the body size,
 * paragraphs from vertical gaps larger than the line spacing.
 */
import { escapeText } from './html-escape';
import { readingGroups, type TextRun } from './pdf-columns';
import type { PdfTextItem } from './pdfjs.loader';

export interface PdfLine {
  text: string;
  /** Baseline, PDF units from the bottom of the page. */
  y: number;
  x: number;
  size: number;
}

function isTextItem(i: PdfTextItem | { type: string }): i is PdfTextItem {
  return typeof (i as PdfTextItem).str === 'string';
}

interface LineRuns {
  y: number;
  size: number;
  runs: TextRun[];
}

/** Runs → lines by baseline, top to bottom. */
function groupLines(runs: TextRun[]): LineRuns[] {
  runs.sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: LineRuns[] = [];
  for (const r of runs) {
    const last = lines[lines.length - 1];
    if (last && Math.abs(last.y - r.y) <= Math.min(last.size, r.size) * 0.5) {
      last.runs.push(r);
      last.size = Math.max(last.size, r.size);
    } else lines.push({ y: r.y, size: r.size, runs: [r] });
  }
  return lines;
}

/** Items → lines, in reading order (columns first, see pdf-columns.ts). */
export function pageLines(items: Array<PdfTextItem | { type: string }>): PdfLine[] {
  const runs: TextRun[] = items
    .filter(isTextItem)
    .filter((i) => i.str.trim() !== '' && i.transform.length >= 6)
    .map((i) => ({
      str: i.str,
      x: i.transform[4] ?? 0,
      y: i.transform[5] ?? 0,
      width: i.width,
      size: Math.abs(Math.hypot(i.transform[2] ?? 0, i.transform[3] ?? 0)) || i.height || 1,
    }));
  const lines: LineRuns[] = [];
  for (const group of readingGroups(runs)) for (const l of groupLines(group)) lines.push(l);
  return lines.map((l) => {
    l.runs.sort((a, b) => a.x - b.x);
    let text = '';
    let end = Number.NEGATIVE_INFINITY;
    for (const r of l.runs) {
      const gap = r.x - end;
      if (text !== '' && !/\s$/.test(text) && !/^\s/.test(r.str) && gap > r.size * 0.15) text += ' ';
      text += r.str;
      end = r.x + r.width;
    }
    return { text: text.replace(/\s+/g, ' ').trim(), y: l.y, x: l.runs[0]?.x ?? 0, size: l.size };
  });
}

/** The font size carrying the most characters: the body text's. */
export function bodySize(pages: PdfLine[][]): number {
  const chars = new Map<number, number>();
  for (const page of pages)
    for (const l of page) {
      const k = Math.round(l.size * 2) / 2;
      chars.set(k, (chars.get(k) ?? 0) + l.text.length);
    }
  let best = 0;
  let most = -1;
  for (const [size, n] of chars)
    if (n > most || (n === most && size < best)) {
      best = size;
      most = n;
    }
  return best || 12;
}

/** 0 = body text, else the heading level (1 or 2). */
function headingLevel(size: number, body: number): 0 | 1 | 2 {
  if (size >= body * 1.6) return 1;
  if (size >= body * 1.2) return 2;
  return 0;
}

/** One page's lines → <h1>/<h2>/<p> blocks. */
export function pageHtml(lines: PdfLine[], body: number): string {
  const out: string[] = [];
  let tag = '';
  let buf: string[] = [];
  let prev: PdfLine | undefined;
  const flush = (): void => {
    if (buf.length > 0) out.push(`<${tag}>${escapeText(buf.join(' '))}</${tag}>`);
    buf = [];
  };
  for (const l of lines) {
    const level = headingLevel(l.size, body);
    const t = level === 0 ? 'p' : `h${level}`;
    // A new block when the kind changes or the gap to the previous line exceeds the line spacing.
    const gap = prev ? prev.y - l.y : 0;
    const spacing = Math.max(l.size, prev?.size ?? 0) * 1.6;
    if (t !== tag || !prev || gap > spacing || gap < 0) {
      flush();
      tag = t;
    }
    // A hyphen at a line end joins the word it split.
    const lastIdx = buf.length - 1;
    const last = buf[lastIdx];
    if (last !== undefined && /[a-z]-$/.test(last) && /^[a-z]/.test(l.text))
      buf[lastIdx] = last.slice(0, -1) + l.text;
    else buf.push(l.text);
    prev = l;
  }
  flush();
  return out.join('\n');
}
