import { articlePage, prose, textOf } from '../test-support/article-page';

const card = `<span class="card"><span><img src="/p.jpg" alt=""></span>
  <a href="/1">Mayor backs the harbour plan</a> <a href="/2">Mayor opens the new library</a>
  <a href="/3">Mayor answers questions on rates</a> <a href="/people/jane">MORE</a></span>`;
const page = (para: string): string =>
  articlePage(
    'Harbour reopens',
    `<article>
    <p>${prose(8, 'story')}</p>${para}<p>${prose(8, 'more')}</p><p>${prose(6, 'end')}</p></article>`,
  );
const text = (html: string): string => textOf(html);

describe('hover cards inside a sentence', () => {
  it('drops the card (image and headline links) and keeps the name and the sentence', () => {
    const out = text(
      page(`<p>The plan was approved by Mayor <span class="person"><a href="/people/jane">Jane Doe</a>${card}</span>
        (Ind.) on Monday, after a long debate in the council chamber.</p>`),
    );
    expect(out).toContain('Jane Doe');
    expect(out).toContain('on Monday, after a long debate');
    expect(out).not.toContain('opens the new library');
  });

  it('keeps a sentence with an inline image and a few links in its own words', () => {
    const out = text(
      page(`<p>See <img src="/i.png" alt=""> the <a href="/1">budget</a>, the <a href="/2">minutes</a> and the
        <a href="/3">vote</a> for how the council chamber decided, and why it took so long.</p>`),
    );
    expect(out).toContain('minutes');
  });
});
