import { articlePage, prose, textOf } from '../test-support/article-page';

describe('accordion drawers', () => {
  it('keeps the items of an accordion named drawers, and still drops an off-canvas drawer', () => {
    const out = textOf(
      articlePage(
        'Bread at home',
        `<div class="site-drawer"><p>${prose(2, 'menu')}</p></div>
        <article><p>${prose(6, 'bread')}</p>
        <ul class="accordion"><li class="accordion-drawer"><h3>Flour</h3><p>${prose(3, 'flour')}</p></li>
        <li class="accordion-drawer"><h3>Water</h3><p>${prose(3, 'water')}</p></li></ul>
        <p>${prose(3, 'baking')}</p></article>`,
      ),
    );
    expect(out).toContain('Sentence 0 about flour');
    expect(out).toContain('Sentence 0 about water');
    expect(out).not.toContain('about menu');
  });
});
