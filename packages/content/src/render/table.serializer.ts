/**
 * GFM tables. Layout tables (one column, nested tables, a lone cell) are not data: they
 * return null and the caller renders their cells as ordinary blocks.
 */
import type { Element, ParentNode } from 'domhandler';
import { isElement } from '../dom/dom.util';

interface CellRenderer {
  inlineOf(el: ParentNode): string;
}

/** Rows of this table only (not of nested tables), in document order. */
export function tableRows(table: Element): Element[][] {
  const rows: Element[][] = [];
  const visit = (p: Element, depth: number): void => {
    for (const c of p.children) {
      if (!isElement(c)) continue;
      if (c.name === 'tr') {
        rows.push(
          c.children.filter((x): x is Element => isElement(x) && (x.name === 'td' || x.name === 'th')),
        );
      } else if (
        depth < 2 &&
        (c.name === 'thead' || c.name === 'tbody' || c.name === 'tfoot' || c.name === 'form')
      ) {
        visit(c, depth + 1);
      }
    }
  };
  visit(table, 0);
  return rows.filter((r) => r.length > 0);
}

function hasNestedTable(cells: Element[][]): boolean {
  for (const row of cells)
    for (const cell of row) {
      const stack: Element[] = [cell];
      while (stack.length > 0) {
        const e = stack.pop()!;
        for (const c of e.children) {
          if (!isElement(c)) continue;
          if (c.name === 'table') return true;
          stack.push(c);
        }
      }
    }
  return false;
}

const span = (cell: Element): number => {
  const n = Number.parseInt(cell.attribs.colspan ?? '1', 10);
  return Number.isFinite(n) && n > 1 ? Math.min(n, 50) : 1;
};

const oneLine = (s: string): string =>
  s
    .replace(/\s*\n\s*/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();

/** Markdown blocks for a table, or null if it is a layout table. */
export function renderTable(table: Element, r: CellRenderer, markdown: boolean): string[] | null {
  const rows = tableRows(table);
  if (rows.length === 0) return null;
  const width = rows.reduce(
    (w, row) =>
      Math.max(
        w,
        row.reduce((n, c) => n + span(c), 0),
      ),
    0,
  );
  if (width < 2 || hasNestedTable(rows)) return null;
  const caption = table.children.find((c): c is Element => isElement(c) && c.name === 'caption');
  const out: string[] = [];
  if (caption) {
    const t = oneLine(r.inlineOf(caption));
    if (t) out.push(t);
  }
  const lines: string[][] = rows.map((row) => {
    const cells: string[] = [];
    for (const cell of row) {
      const t = oneLine(r.inlineOf(cell));
      cells.push(markdown ? t.replace(/\|/g, '\\|') : t);
      for (let i = 1; i < span(cell); i++) cells.push('');
    }
    while (cells.length < width) cells.push('');
    return cells;
  });
  if (lines.every((l) => l.every((c) => c === ''))) return out.length ? out : [];
  if (!markdown) {
    out.push(
      lines
        .map((l) => l.filter((c) => c !== '').join('\t'))
        .filter((l) => l !== '')
        .join('\n'),
    );
    return out;
  }
  const head = lines[0]!;
  const body = lines.slice(1);
  const fmt = (cells: string[]): string => `| ${cells.join(' | ')} |`;
  out.push([fmt(head), fmt(head.map(() => '---')), ...body.map(fmt)].join('\n'));
  return out;
}
