import { articlePage, prose, textOf } from '../test-support/article-page';

const page = (extra: string): string =>
  articlePage(
    'Harbour reopens',
    `<article>
    <p>${prose(8, 'story')}</p>${extra}<p>${prose(8, 'more')}</p><p>${prose(6, 'end')}</p></article>`,
  );
const text = (html: string): string => textOf(html);

describe('a lead-in and a link to another story', () => {
  it('drops "SEE MORE: <a>headline</a>"', () => {
    const out = text(
      page('<p><strong>SEE MORE</strong>: <a href="/b">Storm closes three coast bridges</a></p>'),
    );
    expect(out).toContain('Sentence 5 about more');
    expect(out).not.toContain('three coast bridges');
  });

  it('drops "Read more: <a>headline</a>"', () => {
    expect(text(page('<p>Read more: <a href="/b">Storm closes three coast bridges</a></p>'))).not.toContain(
      'three coast bridges',
    );
  });

  it('keeps a sentence that says "see more" in its own words', () => {
    const out = text(page('<p>Visitors will <a href="/b">see more ferries</a> in the harbour from May.</p>'));
    expect(out).toContain('see more ferries');
  });
});
