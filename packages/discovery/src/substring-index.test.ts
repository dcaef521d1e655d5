import fc from 'fast-check';
import { MAX_KEY_LENGTH, SubstringIndex } from './substring-index';

describe('SubstringIndex', () => {
  it('reports exactly the keys that occur in the text, each once', () => {
    const chars = fc.constantFrom('a', 'b', 'ab', '/', '?', 'é');
    const key = fc
      .array(chars, { minLength: 1, maxLength: 4 })
      .map((c) => c.join('').slice(0, MAX_KEY_LENGTH));
    fc.assert(
      fc.property(
        fc.uniqueArray(key, { maxLength: 20 }),
        fc.array(chars, { maxLength: 30 }),
        (keys, parts) => {
          const text = parts.join('');
          const found: number[] = [];
          new SubstringIndex(keys).scan(text, (id) => found.push(id));
          const expected = keys.map((k, i) => [k, i] as const).filter(([k]) => text.includes(k));
          expect([...found].sort((x, y) => x - y)).toEqual(expected.map(([, i]) => i));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('scans again from scratch (no key reported from a previous text)', () => {
    const index = new SubstringIndex(['abc', 'bc', 'x']);
    const seen = (t: string) => {
      const ids: number[] = [];
      index.scan(t, (id) => ids.push(id));
      return ids;
    };
    expect(seen('zabcz')).toEqual([0, 1]);
    expect(seen('zzz')).toEqual([]);
    expect(seen('bcx')).toEqual([1, 2]);
  });
});
