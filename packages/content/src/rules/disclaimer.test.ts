import { articlePage, prose, textOf } from '../test-support/article-page';

// Fine print named for what it is: an affiliate note above a review, a tablet's feature
// footnotes ('feature__disclaimer-wrap'), a financing block ('product-disclaimer'), legal copy
// and an offer's fine print. The word 'disclaimer' in the prose is not a chrome name.
const page = articlePage(
  'A week with a tablet',
  `<div class="affiliate-disclaimer">We may earn a commission when you buy through our links.</div>
  <article><h1>A week with a tablet</h1><p>${prose(5, 'tablets')}</p>
  <section class="feature"><h2>Bright display</h2><p>${prose(2, 'screens')}</p>
  <div class="feature__disclaimer-wrap"><p>* Image simulated. Colour availability may vary by region and carrier.</p></div></section>
  <p>Every review carries a disclaimer: the maker lent the unit and saw nothing before publication.</p>
  <div class="product-disclaimer"><p>† Rates between 0% and 36% APR; a $700 purchase might cost $63.24 a month.</p></div>
  <p>${prose(3, 'batteries')}</p>
  <p class="legal-copy">Trade-in values vary with the condition of your eligible device.</p>
  <div class="offer__fine-print">Offer valid for new subscribers only; renews monthly.</div></article>`,
);

describe('disclaimer blocks', () => {
  const out = textOf(page);

  it('go: affiliate notes, feature footnotes and financing fine print', () => {
    expect(out).not.toContain('earn a commission');
    expect(out).not.toContain('Image simulated');
    expect(out).not.toContain('36% APR');
    expect(out).not.toContain('Trade-in values');
    expect(out).not.toContain('new subscribers only');
  });

  it('while the prose around them, and prose that mentions a disclaimer, stays', () => {
    for (const t of [
      'Sentence 4 about tablets',
      'Bright display',
      'Sentence 1 about screens',
      'Sentence 2 about batteries',
    ])
      expect(out).toContain(t);
    expect(out).toContain('Every review carries a disclaimer');
  });
});
