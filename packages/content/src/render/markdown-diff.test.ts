import { diffMarkdown } from './markdown-diff';

describe('diffMarkdown', () => {
  it('lists added and removed lines, a unified diff and its structured form', () => {
    const before = '# Prices\n\nBasic plan: $10\n\nPro plan: $20\n\nContact us.\n';
    const after = '# Prices\n\nBasic plan: $12\n\nPro plan: $20\n\nEnterprise: call\n\nContact us.\n';
    const d = diffMarkdown(before, after);
    expect(d.added).toEqual(['Basic plan: $12', 'Enterprise: call', '']);
    expect(d.removed).toEqual(['Basic plan: $10']);
    expect(d.text).toContain('\n-Basic plan: $10\n');
    expect(d.text).toContain('\n+Basic plan: $12\n');
    expect(d.text.startsWith('--- previous')).toBe(true);
    const file = d.json.files[0];
    expect(file).toMatchObject({ from: 'previous', to: 'current', additions: 3, deletions: 1 });
    const changes = file?.chunks.flatMap((c) => c.changes) ?? [];
    expect(changes).toContainEqual({ type: 'del', ln: 3, content: '-Basic plan: $10' });
    expect(changes).toContainEqual({ type: 'add', ln: 3, content: '+Basic plan: $12' });
    expect(changes.find((c) => c.type === 'normal')).toMatchObject({ ln1: 1, ln2: 1, content: ' # Prices' });
    expect(d.truncated).toBe(false);
  });

  it('is empty for equal texts, line endings aside', () => {
    const d = diffMarkdown('a\r\nb', 'a\nb\n');
    expect(d).toEqual({ added: [], removed: [], text: '', json: { files: [] }, truncated: false });
  });

  it('bounds the lines listed and the text, and says it did', () => {
    const before = Array.from({ length: 50 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 50 }, (_, i) => `new ${i}`).join('\n');
    const d = diffMarkdown(before, after, { maxLines: 10, maxTextChars: 200 });
    expect(d.added).toHaveLength(10);
    expect(d.removed).toHaveLength(10);
    expect(d.text.length).toBeLessThanOrEqual(200);
    expect(d.text.endsWith('\n')).toBe(true);
    expect(d.truncated).toBe(true);
  });

  it('falls back to a set difference when the edit search runs out of budget', () => {
    // Distinct lines everywhere: the edit search must explore far; a 0 ms budget stops it at once.
    const before = Array.from({ length: 3000 }, (_, i) => `line ${i * 2}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `line ${i * 3}`).join('\n');
    const d = diffMarkdown(before, after, { timeoutMs: 0, maxLines: 100_000, maxTextChars: 10_000_000 });
    expect(d.truncated).toBe(true);
    const kept = new Set(before.split('\n'));
    const expectedAdded = after.split('\n').filter((l) => !kept.has(l));
    expect(d.added).toEqual(expectedAdded);
    expect(d.json.files[0]?.additions).toBe(expectedAdded.length);
    expect(d.text).toContain(`+${expectedAdded[0]}\n`);
  });

  it('cuts long lines to maxLineChars, ending them with …, and bounds the listed lines together', () => {
    const long = (c: string) => c.repeat(5_000);
    const before = `title\n${long('a')}\n${long('b')}\nend`;
    const after = `title\n${long('c')}\n${long('d')}\nshort\nend`;
    const d = diffMarkdown(before, after, { maxLineChars: 100, maxListChars: 250 });
    expect(d.removed).toEqual([`${'a'.repeat(99)}…`, `${'b'.repeat(99)}…`]);
    // 200 characters listed by the removed lines: only 50 left for the added ones.
    expect(d.added).toEqual([]);
    expect(d.truncated).toBe(true);
    for (const line of d.text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(d.text).toContain(`\n+${'c'.repeat(98)}…\n`);
    expect(d.text).toContain('\n+short\n');
    for (const c of d.json.files[0]?.chunks.flatMap((k) => k.changes) ?? [])
      expect(c.content.length).toBeLessThanOrEqual(100);
    // The same bounds hold when the edit search gives up.
    const slow = diffMarkdown(before, after, { maxLineChars: 100, maxListChars: 250, timeoutMs: 0 });
    expect([...slow.added, ...slow.removed].every((l) => l.length <= 100)).toBe(true);
    expect([...slow.added, ...slow.removed].join('').length).toBeLessThanOrEqual(250);
  });

  it('says it cut a long line of context', () => {
    const context = 'w'.repeat(500);
    const d = diffMarkdown(`${context}\nb`, `${context}\nc`, { maxLineChars: 100 });
    expect([d.added, d.removed]).toEqual([['c'], ['b']]);
    expect(d.text).toContain(` ${'w'.repeat(98)}…\n`);
    expect(d.truncated).toBe(true);
  });

  it('leaves lines whole by default and short lines always', () => {
    const line = 'x'.repeat(5_000);
    expect(diffMarkdown('a', line).added).toEqual([line]);
    const d = diffMarkdown('a\nb', 'a\nc', { maxLineChars: 20, maxListChars: 100 });
    expect([d.added, d.removed, d.truncated]).toEqual([['c'], ['b'], false]);
  });
});
