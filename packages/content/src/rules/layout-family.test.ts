import { articlePage, prose, textOf } from '../test-support/article-page';

// A page builder: one "widget-wrap" wraps the page, the article is split across nested ones.
const builderPage = (): string =>
  articlePage(
    'Tide tables',
    `<div class="builder-widget-wrap">
      <div class="builder-widget-wrap"><h1>Tide tables</h1><p>By the desk</p></div>
      <div class="builder-widget-wrap"><p>${prose(6, 'tides')}</p><p>${prose(5, 'moon')}</p></div>
      <div class="builder-widget-wrap"><p>${prose(6, 'harbours')}</p></div>
      <div class="builder-widget-wrap"><p>${prose(5, 'boats')}</p></div>
      <div class="sidebar"><a href="/a">Other story one</a> <a href="/b">Other story two</a></div>
    </div>`,
  );

describe('chrome names used as page-builder layout', () => {
  it('keeps the article split across nested blocks named like widgets', () => {
    const out = textOf(builderPage());
    expect(out).toContain('Sentence 0 about tides');
    expect(out).toContain('Sentence 0 about harbours');
    expect(out).toContain('Sentence 0 about boats');
    expect(out).not.toContain('Other story one');
  });

  it('still drops a real widget beside the article', () => {
    const out = textOf(
      articlePage(
        'Tide tables',
        `<article><p>${prose(8, 'tides')}</p><p>${prose(8, 'moon')}</p></article>
        <div class="widget"><p>${prose(2, 'weather')}</p></div>`,
      ),
    );
    expect(out).toContain('Sentence 0 about tides');
    expect(out).not.toContain('about weather');
  });
});
