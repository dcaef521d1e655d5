import { processHtml } from '../index';

const URL = 'https://news.example.org/science';
const story = (i: number, figure: string): string =>
  `<article class="story"><h2><a href="/science/story-${i}">Harbour town number ${i} opens its new ferry line</a></h2>
  ${figure}
  <p>Residents of the town welcomed the first crossing on Monday, after years of delays and a vote on the budget.</p></article>`;
const page = (figure: (i: number) => string): string =>
  `<html><body><main><h1>Science news</h1>${Array.from({ length: 8 }, (_, i) => story(i, figure(i))).join('\n')}</main></body></html>`;
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

describe('photo captions on the teasers of a listing', () => {
  it('go, with the photo credits; the teasers stay', () => {
    const out = text(
      page(
        (i) =>
          `<figure><img src="/p${i}.jpg" alt=""><figcaption>The ferry at dawn, from the lighthouse.</figcaption></figure><span class="image-credit">Ann Lee/Harbour Post</span>`,
      ),
    );
    expect(out).toContain('Harbour town number 7 opens its new ferry line');
    expect(out).toContain('after years of delays');
    expect(out).not.toContain('from the lighthouse');
    expect(out).not.toContain('Ann Lee/Harbour Post');
  });

  it('stay when the caption blocks are most of the list (the item text itself)', () => {
    const html = `<html><body><main><h1>Science news</h1>${Array.from(
      { length: 8 },
      (_, i) =>
        `<div class="card"><img src="/p${i}.jpg" alt=""><div class="card-caption"><a href="/s/${i}">Harbour town number ${i} opens its new ferry line</a></div></div>`,
    ).join('')}</main></body></html>`;
    expect(text(html)).toContain('Harbour town number 7 opens its new ferry line');
  });
});
