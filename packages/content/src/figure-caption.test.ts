import { processHtml } from './index';

const URL = 'https://example.com/news/story.html';
const prose = (n: number, word: string): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');
const page = (caption: string): string =>
  `<html><head><title>Habitat study</title><meta property="og:type" content="article"></head><body><article>
    <p>${prose(8, 'story')}</p><p>${prose(8, 'more')}</p>
    <figure><img src="/a.jpg" alt=""><figcaption>${caption}</figcaption></figure>
    <p>${prose(8, 'end')}</p><p>${prose(6, 'close')}</p></article></body></html>`;
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

describe('figure captions in an article', () => {
  it('drops a long explanatory <figcaption> (over 400 characters) like a short one', () => {
    const out = text(page(`${prose(6, 'caption')} Credit: Example Agency`));
    expect(out).toContain('Sentence 5 about end');
    expect(out).not.toContain('about caption');
  });

  it('drops a short <figcaption>', () => {
    expect(text(page('A bridge at dusk. Credit: Example Agency'))).not.toContain('bridge at dusk');
  });
});
