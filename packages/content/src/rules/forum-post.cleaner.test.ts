import { processHtml } from '../index';
import { POSTS, post, THREAD_URL, threadPage, threadText } from '../test-support/forum-page';

describe('forum posts without their per-post chrome', () => {
  const html = threadPage(POSTS.map(post).join(''));

  it('reads the page as a forum thread', () => {
    expect(processHtml(html, { url: THREAD_URL, formats: ['text'] }).metadata.pageType).toBe('forum');
  });

  it('keeps every post with its author, date and text', () => {
    const out = threadText(html);
    for (const p of POSTS) {
      expect(out).toContain(p.author);
      expect(out).toContain(p.date);
    }
    expect(out).toContain('Sentence 2 about studded tyres');
    expect(out).toContain('Sentence 1 about tyre pressure');
  });

  it('drops member statistics, action bars, vote counts and tag lists', () => {
    const out = threadText(html);
    expect(out).not.toContain('Joined');
    expect(out).not.toContain('1,204');
    expect(out).not.toContain('Location: Lyon');
    expect(out).not.toContain('Well-known member');
    expect(out).not.toContain('Report');
    expect(out).not.toContain('Like x 3');
    expect(out).not.toContain('With Quote');
    expect(out).not.toMatch(/^1[2-5]$/m);
    expect(out).not.toContain('winter\n');
    expect(out).not.toContain('Drive safe');
    expect(out).not.toContain('Click to expand');
    expect(out).not.toMatch(/^Author$/m);
    expect(out).not.toMatch(/^(?:7|8|9|10)$/m);
    expect(out).toContain('Earlier words');
  });

  it('keeps a post whose text is a statistic-like sentence', () => {
    const chatty = post(
      {
        author: 'eve',
        date: 'Jan 5, 2024',
        body: 'Location: I drive in the Alps every week, all winter long.',
      },
      4,
    );
    expect(threadText(threadPage(POSTS.map(post).join('') + chatty))).toContain(
      'I drive in the Alps every week',
    );
  });

  it('drops letter avatars but keeps a name in a block flagged as having no avatar', () => {
    const posts = ['julian', 'kichae', 'scott']
      .map(
        (name, i) =>
          `<li class="post" id="post-${i}"><div class="post-avatar"><a href="/user/${name}">${name[0]!.toUpperCase()}</a></div><dl><dt class="no-avatar"><a class="username" href="/user/${name}">${name}</a></dt></dl><div class="content"><p>Reply ${i}: ${'words about the release, '.repeat(6)}done.</p></div></li>`,
      )
      .join('');
    const out = threadText(threadPage(`<ul class="posts">${posts}</ul>`));
    expect(out).toContain('kichae');
    expect(out).not.toMatch(/^[JKS]$/m);
  });
});
