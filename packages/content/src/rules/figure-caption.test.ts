import { articlePage, prose, textOf } from '../test-support/article-page';

const page = (caption: string): string =>
  articlePage(
    'Habitat study',
    `<article>
    <p>${prose(8, 'story')}</p><p>${prose(8, 'more')}</p>
    <figure><img src="/a.jpg" alt=""><figcaption>${caption}</figcaption></figure>
    <p>${prose(8, 'end')}</p><p>${prose(6, 'close')}</p></article>`,
  );
const text = (html: string): string => textOf(html);

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
