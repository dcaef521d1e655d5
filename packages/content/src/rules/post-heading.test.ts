import { prose } from '../test-support/article-page';
import { threadMarkdown, threadPage } from '../test-support/forum-page';

/** A post whose author line is plain text (no heading), as client-rendered boards print it. */
const plainPost = (author: string, date: string, word: string, i: number): string =>
  `<div class="topic-post" id="post_${i}">
    <div class="post-info"><div class="names"><a href="/u/${author}">${author}</a></div>
      <div class="post-infos"><time datetime="2024-05-0${i}">${date}</time></div></div>
    <div class="cooked"><p>${prose(3, word)}</p></div>
  </div>`;

const page = threadPage(
  [
    plainPost('raoul', 'May 3, 2024', 'the upgrade', 1),
    plainPost('bill', 'May 4, 2024', 'the integration', 2),
    plainPost('raoul', 'May 5, 2024', 'the workaround', 3),
  ].join(''),
);

describe('one heading per forum post in markdown', () => {
  it('turns each post author line into a heading holding the author and the date', () => {
    const md = threadMarkdown(page);
    const heads = md.split('\n').filter((l) => l.startsWith('### '));
    expect(heads).toHaveLength(3);
    expect(heads[0]).toContain('raoul');
    expect(heads[0]).toContain('May 3, 2024');
    expect(heads[1]).toContain('bill');
    expect(heads[2]).toContain('May 5, 2024');
  });

  it('puts each post body after its own heading, not in one run of text', () => {
    const md = threadMarkdown(page);
    const at = (s: string): number => md.indexOf(s);
    expect(at('May 4, 2024')).toBeGreaterThan(at('Sentence 2 about the upgrade'));
    expect(at('Sentence 0 about the integration')).toBeGreaterThan(at('May 4, 2024'));
    expect(md).toMatch(/### .*bill.*May 4, 2024\n\nSentence 0 about the integration/);
  });

  it('leaves posts that already have a heading alone', () => {
    const withHeading = threadPage(
      ['alpha', 'beta']
        .map(
          (w, i) =>
            `<div class="topic-post"><h4><a href="/u/${w}">${w}</a></h4><div>June ${i + 1}</div><p>${prose(3, w)}</p></div>`,
        )
        .join(''),
    );
    const md = threadMarkdown(withHeading);
    expect(md).toContain('#### [alpha]');
    expect(md).not.toContain('### June');
  });
});
