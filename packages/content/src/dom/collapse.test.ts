import { prng } from '../test-support/prng';
import { collapse } from './dom.util';

const reference = (s: string): string => s.replace(/\s+/g, ' ').trim();

describe('collapse', () => {
  it('treats every UTF-16 code unit as the \\s class does', () => {
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      for (const s of [`a${ch}b`, `${ch}a`, `a${ch}`, `a ${ch}b`, ch]) {
        if (collapse(s) !== reference(s)) throw new Error(`U+${c.toString(16)} in ${JSON.stringify(s)}`);
      }
    }
  });

  it('gives the replace-and-trim answer on generated text, and text already collapsed back as is', () => {
    const parts = ['word', ' ', '  ', '\n', '\t', '\u00a0', '\u3000', 'é', '日本', '\u200b', '\u0085', 'x'];
    const next = prng(7);
    for (let n = 0; n < 5_000; n++) {
      let s = '';
      for (let k = Math.floor(next() * 12); k > 0; k--) s += parts[Math.floor(next() * parts.length)];
      expect({ s, got: collapse(s) }).toEqual({ s, got: reference(s) });
    }
    const clean = 'already one space between words';
    expect(collapse(clean)).toBe(clean);
  });
});
