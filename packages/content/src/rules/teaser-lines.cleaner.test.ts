import { articlePage, prose, textOf } from '../test-support/article-page';

const page = (block: string): string =>
  articlePage(
    'Harbour reopens',
    `<article>
    <p>${prose(8, 'story')}</p>${block}<p>${prose(8, 'more')}</p><p>${prose(6, 'end')}</p></article>`,
  );
const text = (html: string): string => textOf(html);

describe('paragraphs of teaser links inside an article', () => {
  it('drops a paragraph of linked headlines with bracketed labels', () => {
    const out = text(
      page(`<p><a href="/a">Council votes on the new harbour budget today</a> [<strong>INSIGHT]|<br></strong>
        <a href="/b">Storm closes three bridges along the coast road</a> [VIDEO]</p>`),
    );
    expect(out).toContain('Sentence 5 about more');
    expect(out).not.toContain('harbour budget');
    expect(out).not.toContain('three bridges');
  });

  it('drops the same block opened by a lead-in line', () => {
    const out = text(
      page(`<p><strong>DON'T MISS</strong><br><strong><a href="/a">Council votes on the new harbour budget today</a> [NEWS]</strong>
        <br><strong><a href="/b">Storm closes three bridges along the coast road</a></strong></p>`),
    );
    expect(out).not.toContain('harbour budget');
    expect(out).not.toContain("DON'T MISS");
  });

  it('keeps lines whose words beside the link are their own', () => {
    const out = text(
      page(`<p>Best overall: <a href="/a">Harbour Kitchen meal kit service</a><br>
        Best budget pick: <a href="/b">Coast Road weekly meal boxes</a></p>`),
    );
    expect(out).toContain('Harbour Kitchen meal kit service');
  });

  it('keeps lines of prose that carry a link', () => {
    const out = text(
      page(`<p>The harbour master said on Monday that <a href="/a">the new quay</a> would open in spring.<br>
        Ferries will resume once <a href="/b">the survey</a> is complete and the channel is dredged.</p>`),
    );
    expect(out).toContain('would open in spring');
  });
});
