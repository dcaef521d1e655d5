import { processHtml } from '../index';
import { articlePage, prose, textOf } from '../test-support/article-page';

const URL = 'https://shop.example.com/products/fire-pit';
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

const LD_PRODUCT =
  '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Fire pit"}</script>';
const visible =
  '<h1>Steel fire pit</h1><p>' +
  'A smokeless steel fire pit for the garden, with a removable ash pan, a lid, and a stand. '.repeat(8) +
  '</p>';
const accordion = `<div class="accordion"><div class="accordion-item"><button>Description</button>
  <div class="collapse" style="display:none"><div role="region" class="accordion-panel"><p>${'The double wall draws air in at the base and burns the smoke off at the top, so the fire stays clean. '.repeat(3)}</p></div></div></div>
  <div class="accordion-item"><button>Specifications</button><div class="accordion-content" aria-hidden="true"><ul><li>Height: 39 cm</li><li>Material: stainless steel</li></ul></div></div></div>`;
const page = (head: string, body: string): string =>
  `<html><head>${head}</head><body><main>${body}</main></body></html>`;

describe('closed accordion and tab panels on product pages', () => {
  it('shows the description and specifications folded into closed panels', () => {
    const out = text(page(LD_PRODUCT, visible + accordion));
    expect(out).toContain('burns the smoke off at the top');
    expect(out).toContain('Material: stainless steel');
  });

  it('keeps panels under the hidden attribute hidden', () => {
    const promo = `<div role="tabpanel" class="tab-panel" hidden><p>${'Our advisers train for weeks before they answer your calls, every day. '.repeat(3)}</p></div>`;
    expect(text(page(LD_PRODUCT, visible + accordion + promo))).not.toContain('Our advisers train');
  });

  it('shows them too on a page read as a product that declares none (a price, an add-to-cart button)', () => {
    const buy = '<div class="price">$249.00</div><button>Add to cart</button>';
    const out = text(page('', visible + buy + accordion));
    expect(out).toContain('burns the smoke off at the top');
    expect(out).toContain('Material: stainless steel');
  });

  it('leaves closed panels hidden on pages that are not products', () => {
    expect(text(page('', visible + accordion))).not.toContain('burns the smoke off at the top');
  });

  it('does not show hidden blocks that are not panels (a closed menu)', () => {
    const menu =
      '<div class="menu-flyout" style="display:none"><p>Fire pits, grills, and outdoor heaters for sale.</p></div>';
    expect(text(page(LD_PRODUCT, visible + accordion + menu))).not.toContain('outdoor heaters');
  });
});

const step = (n: number, word: string): string =>
  `<div><a role="button" aria-controls="step-${n}" aria-expanded="false">Step ${n}</a>
    <div id="step-${n}" style="display:none" role="region"><p>${prose(3, word)}</p></div></div>`;

describe('panels folded behind a disclosure control', () => {
  it('shows the steps an article folds behind buttons', () => {
    const out = textOf(
      articlePage(
        'Planting garlic',
        `<article><p>${prose(6, 'garlic')}</p>${step(1, 'soil')}${step(2, 'cloves')}<p>${prose(3, 'harvest')}</p></article>`,
      ),
    );
    expect(out).toContain('Sentence 0 about soil');
    expect(out).toContain('Sentence 0 about cloves');
  });

  it('leaves a hidden block no control names, and a menu toggled from the header, hidden', () => {
    const out = textOf(
      articlePage(
        'Planting garlic',
        `<header><button aria-controls="drawer" aria-expanded="false">Menu</button></header>
        <article><p>${prose(6, 'garlic')}</p>
        <div id="drawer" style="display:none"><p>${prose(3, 'drawer')}</p></div>
        <div id="stray" style="display:none"><p>${prose(3, 'stray')}</p></div>
        <p>${prose(3, 'harvest')}</p></article>`,
      ),
    );
    expect(out).toContain('Sentence 0 about garlic');
    expect(out).not.toContain('about drawer');
    expect(out).not.toContain('about stray');
  });
});
