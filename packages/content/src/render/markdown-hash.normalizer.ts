/**
 * Markdown normalised for change detection: two renderings that differ only in whitespace,
 * line wrapping, emphasis, bullet style, list numbering, heading syntax or table padding
 * must hash the same; any change of words, links or images must not.
 */

const FENCE = /^(`{3,}|~{3,})/;

function normaliseLine(line: string): string {
  let l = line
    .replace(/[\u200b-\u200d\u2060\ufeff]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  l = l.replace(/^#{1,6} +/, '').replace(/ +#+$/, '');
  l = l.replace(/^([-*+]|\d+[.)]) +/, '- ');
  // emphasis/strike markers carry formatting only (escaped markers stay). Our serializer
  // escapes every literal * in text, so an unescaped * is emphasis wherever it stands (a
  // wrapper can end inside a word: <i>foo</i><span>bar</span> is *foo*bar).
  l = l.replace(/(?<!\\)(?:\*+|__|~~)/g, '').replace(/(^|[^\\\w])_(?=\S)|(?<=\S)_(?=$|[^\w])/g, '$1');
  // a paragraph escaped so it does not read as a list or heading (\1. Foo) says the same as
  // one whose number or mark sits in a wrapper (**1.** Foo)
  l = l.replace(/^\\(?=[#>+=~`-]|\d+[.)] )/, '');
  l = l.replace(/^([-*+]|\d+[.)]) +/, '- ');
  l = l.replace(/^#{1,6} +/, '');
  l = l.replace(/^(?:> ?)+/, '> ');
  l = l.replace(/^(- |> )\\(?=[#>+=~`-]|\d+[.)] )/, '$1');
  if (/^\|.*\|$/.test(l)) {
    if (/^\|(?:\s*:?-+:?\s*\|)+$/.test(l)) return '|---|';
    l = l
      .split(/(?<!\\)\|/)
      .map((c) => c.trim())
      .join('|');
  }
  return l.replace(/ {2,}/g, ' ').trim();
}

export interface CleanMarkdownOptions {
  /**
   * Leaves out each normalised source line it returns true for, before soft-wrapped prose joins
   * into one line: lines a <br> separated (`  \n`) would otherwise join with their neighbours, and
   * a monitor's ignoreText rule matching one would drop them all.
   */
  dropLine?: (line: string) => boolean;
}

export function cleanMarkdownForHash(markdown: string, options: CleanMarkdownOptions = {}): string {
  if (!markdown) return '';
  const { dropLine } = options;
  const src = markdown
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/\u00a0/g, ' ');
  const out: string[] = [];
  let para: string[] = [];
  let fence: string | null = null;
  const flush = (): void => {
    if (para.length) out.push(para.join(' '));
    para = [];
  };
  for (const raw of src.split('\n')) {
    if (fence !== null) {
      if (raw.trim().startsWith(fence)) {
        out.push(fence);
        fence = null;
      } else out.push(raw.replace(/\s+$/, ''));
      continue;
    }
    const m = FENCE.exec(raw.trim());
    if (m) {
      flush();
      fence = m[1]!;
      out.push(raw.trim().replace(/\s+/g, ''));
      continue;
    }
    const l = normaliseLine(raw);
    if (l === '' || l === '---' || l === '***' || l === '___') {
      flush();
      continue;
    }
    if (dropLine?.(l)) continue;
    // soft-wrapped prose joins; list items, quotes, table rows stay separate lines
    if (/^(- |> |\|)/.test(l)) {
      flush();
      out.push(l);
    } else para.push(l);
  }
  flush();
  return out.join('\n').trim();
}
