/**
 * The share of words that changed between two texts, for a monitor's `threshold`:
 * (words added + words removed) / (words before + words after), in [0, 1], where words are the
 * whitespace-separated tokens and added/removed are the multiset difference (a word's count in one
 * text beyond its count in the other). Replacing 1 word of 100 gives 0.01; replacing every word
 * gives 1; moving words around without changing them gives 0. Linear in the text's size.
 */
export function wordChangeShare(before: string, after: string): number {
  const a = words(before);
  const b = words(after);
  const total = a.length + b.length;
  if (total === 0) return 0;
  const count = new Map<string, number>();
  for (const w of a) count.set(w, (count.get(w) ?? 0) + 1);
  let added = 0;
  for (const w of b) {
    const n = count.get(w) ?? 0;
    if (n > 0) count.set(w, n - 1);
    else added++;
  }
  let removed = 0;
  for (const n of count.values()) removed += n;
  return (added + removed) / total;
}

function words(text: string): string[] {
  return text.split(/\s+/).filter((w) => w !== '');
}
