import { countWords, LazyPage, rawTitle, rawTitleOf, visibleTextOf, visibleWordsAbove } from './text-measure';

/** A small seeded generator, so a failure names an input that can be rebuilt. */
function rng(seed: number): () => number {
  let x = seed >>> 0;
  return () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

const PIECES = [
  'word',
  'Access',
  'denied',
  ' ',
  '\n  ',
  'don&#39;t',
  '&amp;',
  '&nbsp;',
  'a&nbsp;b',
  '&am',
  'p;',
  '東京都',
  '漢字',
  '<p>',
  '</p>',
  '<a href="/x">',
  '</a>',
  '<br/>',
  '<!-- c -->',
  '<!--',
  '-->',
  '<script>var x = "<p>no words here</p>";</script>',
  '<style>p { color: red }</style>',
  '<noscript>enable JavaScript</noscript>',
  '<title>Title words</title>',
  '<svg><text>hidden</text></svg>',
  "it's",
  'x-y_z',
  '42',
  '<',
  '>',
];

/** Markup from random pieces: words split by comments, entities cut by tags, CJK, unclosed tags. */
function markup(next: () => number): string {
  const n = 1 + Math.floor(next() * 60);
  let s = '';
  for (let i = 0; i < n; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

describe('visibleWordsAbove', () => {
  it('says exactly whether countWords(visibleTextOf(html)) exceeds n, on 3,000 generated pages', () => {
    const next = rng(7);
    for (let k = 0; k < 3_000; k++) {
      const html = markup(next);
      const words = countWords(visibleTextOf(html));
      for (const n of [0, 1, 2, words - 1, words, words + 1, 30, 60]) {
        if (n < 0) continue;
        expect({ html, n, above: visibleWordsAbove(html, n) }).toEqual({ html, n, above: words > n });
      }
    }
  });

  it('counts past a long head (scripts, styles) and stops at the word past n', () => {
    const head = `<html><head><title>t</title><script>${'x'.repeat(5_000)}</script></head><body>`;
    const body = Array.from({ length: 500 }, (_, i) => `<p>word${i} more</p>`).join('');
    expect(visibleWordsAbove(head + body, 60)).toBe(true);
    expect(visibleWordsAbove(head + body, 999)).toBe(true);
    expect(visibleWordsAbove(head + body, 1_000)).toBe(false);
    expect(visibleWordsAbove(`${head}<p>only a few words</p>`, 60)).toBe(false);
  });
});

describe('LazyPage.wordsAtMost', () => {
  it('agrees with words() whether the count is known, computed or not yet read', () => {
    const html = '<p>one two three</p><!-- x --><p>fo<!-- -->ur</p>';
    expect(new LazyPage(html, undefined).words()).toBe(4);
    for (const n of [2, 3, 4, 5]) {
      expect(new LazyPage(html, undefined).wordsAtMost(n)).toBe(4 <= n);
      const counted = new LazyPage(html, undefined);
      counted.words();
      expect(counted.wordsAtMost(n)).toBe(4 <= n);
      expect(new LazyPage(html, 10).wordsAtMost(n)).toBe(false);
    }
    // One page asked several limits in turn: a smaller limit after a larger one it exceeded.
    const asked = new LazyPage(html, undefined);
    expect([3, 2, 0, 4, 1, 5].map((n) => asked.wordsAtMost(n))).toEqual([
      false,
      false,
      false,
      true,
      false,
      true,
    ]);
  });
});

describe('visibleTextOf', () => {
  it('joins text split by a comment, separates text split by a tag, drops hidden elements', () => {
    expect(visibleTextOf('<p>Acc<!-- x -->ess</p><p>denied</p><script>no</script>')).toBe('Access denied');
    expect(visibleTextOf('a&amp;b<b>c</b>&nbsp;d')).toBe('a&b c d');
    expect(visibleTextOf('<noscript>Enable JavaScript</noscript><title>x</title>')).toBe('Enable JavaScript');
  });
});

describe('rawTitleOf (markup given by its prefix)', () => {
  it("finds the title rawTitle finds, wherever the title element sits around the near part's end", () => {
    const next = rng(5);
    const titles = [
      '<title>Hello</title>',
      '<TITLE>Up</TITLE>',
      '<titles>no</titles><title>Second</title>',
      '<title>never closed',
      '<title data-x="y">A &amp; B</title>',
    ];
    for (let t = 0; t < 400; t++) {
      const at = 8_192 - 40 + Math.floor(next() * 80) + (t % 4 === 0 ? Math.floor(next() * 70_000) : 0);
      const html = `<html><head>${'x'.repeat(at)}${titles[t % titles.length]}</head><body>${'y'.repeat(Math.floor(next() * 90_000))}</body></html>`;
      const asked: number[] = [];
      const got = rawTitleOf((n) => {
        asked.push(n);
        return html.slice(0, n);
      });
      expect(got).toBe(rawTitle(html));
    }
    // A title near the top is read from the near part alone.
    const near: number[] = [];
    rawTitleOf((n) => {
      near.push(n);
      return `<title>Top</title>${'z'.repeat(100_000)}`.slice(0, n);
    });
    expect(near).toEqual([8_192]);
  });
});
