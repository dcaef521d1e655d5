import { wordChangeShare } from './word-change';

describe('wordChangeShare', () => {
  const hundred = Array.from({ length: 100 }, (_, i) => `w${i}`).join(' ');
  test('(added + removed) / (before + after) over whitespace-separated words', () => {
    expect(wordChangeShare(hundred, hundred.replace('w7 ', 'changed '))).toBeCloseTo(2 / 200);
    expect(wordChangeShare('a b c', 'x y z')).toBe(1);
    expect(wordChangeShare('a b', 'a b c d')).toBeCloseTo(2 / 6);
    expect(wordChangeShare('a\nb  c', 'c b a')).toBe(0);
    expect(wordChangeShare('', '')).toBe(0);
    expect(wordChangeShare('', 'new')).toBe(1);
  });
});
