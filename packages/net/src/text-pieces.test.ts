import { seededRandom } from './test-support/seeded-random';
import { TextPieces } from './text-pieces';

/** `text` cut at `cuts` (sorted offsets). */
const cut = (text: string, cuts: number[]): string[] => {
  const pieces: string[] = [];
  let at = 0;
  for (const c of [...cuts, text.length]) {
    if (c > at) pieces.push(text.slice(at, c));
    at = Math.max(at, c);
  }
  return pieces;
};

describe('TextPieces', () => {
  const next = seededRandom(11);
  const ALPHABET = ['<', 'b', 'o', 'd', 'y', 'B', 'O', 'D', 'Y', '>', ' ', '-', 'x', 'é'];
  const cases = Array.from({ length: 400 }, () => {
    const text = Array.from(
      { length: Math.floor(next() * 60) },
      () => ALPHABET[Math.floor(next() * ALPHABET.length)],
    ).join('');
    const cuts = Array.from({ length: Math.floor(next() * 8) }, () =>
      Math.floor(next() * (text.length + 1)),
    ).sort((a, b) => a - b);
    return { text, pieces: cut(text, cuts) };
  });

  it('is the join of its pieces, with its length', () => {
    for (const { text, pieces } of cases) {
      const t = new TextPieces(pieces);
      expect(t.text).toBe(text);
      expect(t.length).toBe(text.length);
    }
  });

  it('slices as the whole text slices, from the pieces a range covers', () => {
    for (const { text, pieces } of cases) {
      const t = new TextPieces(pieces);
      for (let k = 0; k < 10; k++) {
        const a = Math.floor(next() * (text.length + 3));
        const b = Math.floor(next() * (text.length + 3));
        expect(t.slice(a, b)).toBe(text.slice(a, b));
        expect(t.slice(a)).toBe(text.slice(a));
      }
    }
  });

  it('finds the first match as the whole text does, across piece seams and with a lookahead at a seam', () => {
    const BODY = /<body(?![a-z0-9_-])/i;
    for (const { text, pieces } of cases)
      expect(new TextPieces(pieces).search(BODY, 6)).toBe(text.search(BODY));
    // "<body" at one piece's end, the letter that makes it "<bodyx" at the next piece's start.
    expect(new TextPieces(['aa<body', 'x <BODY>']).search(BODY, 6)).toBe(9);
    expect(new TextPieces(['aa<bo', 'dy>']).search(BODY, 6)).toBe(2);
    expect(new TextPieces([]).search(BODY, 6)).toBe(-1);
  });
});
