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
  l = l.replace(/^(?:> ?)+/, '> ');
  // emphasis/strike markers carry formatting only (escaped markers stay)
  l = l
    .replace(/(^|[^\\])(\*\*|__|~~)/g, '$1')
    .replace(/(^|[^\\\w])[*_](?=\S)|(?<=\S)[*_](?=$|[^\w])/g, '$1');
  if (/^\|.*\|$/.test(l)) {
    if (/^\|(?:\s*:?-+:?\s*\|)+$/.test(l)) return '|---|';
    l = l
      .split(/(?<!\\)\|/)
      .map((c) => c.trim())
      .join('|');
  }
  return l.replace(/ {2,}/g, ' ').trim();
}

export function cleanMarkdownForHash(markdown: string): string {
  if (!markdown) return '';
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
    // soft-wrapped prose joins; list items, quotes, table rows stay separate lines
    if (/^(- |> |\|)/.test(l)) {
      flush();
      out.push(l);
    } else para.push(l);
  }
  flush();
  return out.join('\n').trim();
}
