import { articlePage, prose, textOf } from '../test-support/article-page';

const paras = (n: number, word: string): string =>
  Array.from({ length: n }, (_, i) => `<p>${prose(4, `${word}${i}`)}</p>`).join('');

// One story in sections, the later ones nested a level deeper than the first ones.
const page = articlePage(
  'Choosing a tent',
  `<article><h1>Choosing a tent</h1>
    <section>${paras(3, 'intro')}</section>
    <section>${paras(3, 'weight')}</section>
    <section><div class="note">Tip</div>
      <section><section>${paras(5, 'poles')}</section><section>${paras(2, 'pegs')}</section></section>
    </section>
  </article>
  <div class="more"><p>${prose(1, 'elsewhere')}</p></div>`,
);

describe('an article split into nested sections', () => {
  it('keeps every section of the article, not only the strongest nest of them', () => {
    const out = textOf(page);
    expect(out).toContain('about poles0');
    expect(out).toContain('about intro0');
    expect(out).toContain('about weight2');
  });
});
