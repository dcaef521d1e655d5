import { articlePage, prose, textOf } from '../test-support/article-page';

const paras = (n: number, word: string): string =>
  Array.from({ length: n }, (_, i) => `<p>${prose(4, `${word}${i}`)}</p>`).join('');

// A story whose CMS wraps each block in its own stack of wrappers: the paragraphs of the
// second block sit deeper than the five ancestor levels they vote for.
const deep = (inner: string): string =>
  `<div><div><div><div><div><div class="text">${inner}</div></div></div></div></div></div>`;

const page = articlePage(
  'Planning a trip',
  `<nav><a href="/">Home</a> <a href="/blog">Blog</a></nav>
  <div class="story">
    <div class="lead"><p>${prose(3, 'intro')}</p>${paras(6, 'routes')}</div>
    ${deep(paras(4, 'lodging'))}
  </div>
  <footer><p>Copyright and contact.</p></footer>`,
);

describe('a sibling of the winner whose prose lies deeper than the paragraph votes reach', () => {
  it('joins the winner', () => {
    const out = textOf(page);
    expect(out).toContain('about routes0');
    expect(out).toContain('about lodging0');
    expect(out).toContain('about lodging3');
  });
});
