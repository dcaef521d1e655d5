import { articlePage, prose, textOf } from './article-page.testkit';

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
