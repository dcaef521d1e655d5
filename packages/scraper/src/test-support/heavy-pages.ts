/** Hostile pages for the content pool's tests and bench: built in memory, never fetched. */
export const heavyPages = {
  nestedDivs: (): string =>
    `<html><body>${'<div>'.repeat(100_000)}deep${'</div>'.repeat(100_000)}</body></html>`,
  hugeTextNode: (): string => `<html><body><p>${'lorem ipsum '.repeat(450_000)}</p></body></html>`,
  manyLinks: (): string =>
    `<html><body>${Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">link ${i}</a>`).join('\n')}</body></html>`,
  twentyMb: (): string =>
    `<html><body>${Array.from({ length: 300_000 }, (_, i) => `<p>para ${i} with some <b>bold</b> text and more words here ok</p>`).join('')}</body></html>`,
  /** Sibling <div>s under one parent: `div:has(~ div)` over them is quadratic (8 s at 20,000). */
  wideSiblings: (n = 40_000): string => `<html><body>${'<div>x</div>'.repeat(n)}</body></html>`,
  normal: (): string =>
    `<html><head><title>Normal</title></head><body><nav><a href="/">Home</a></nav><article><h1>Normal page</h1>${'<p>An ordinary paragraph of an ordinary article, long enough to be main content.</p>'.repeat(20)}<p>See <a href="/next">next</a>.</p></article></body></html>`,
};
