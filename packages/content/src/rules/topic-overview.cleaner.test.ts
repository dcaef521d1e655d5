import { processHtml } from '../index';
import { POSTS, post, THREAD_URL, threadPage, threadText } from '../test-support/forum-page';

const overview = `<div class="topic-overview">
  <ul class="stats"><li>Views 3.1k</li><li>Created Jan 1</li><li>Last Reply Jan 4</li></ul>
  <div class="overview-item"><h4>Top Posters In This Topic</h4>
    <ul><li><a href="/members/alpine_anna">alpine_anna</a> 14 posts</li><li><a href="/members/quiet_quinn">quiet_quinn</a> 9 posts</li></ul></div>
  <div class="overview-item"><h4>Popular Days</h4>
    <ul><li>Feb 9 2024 12 posts</li><li>Feb 10 2024 5 posts</li></ul></div>
  <div class="overview-item"><h4>Most Popular Posts</h4>
    <ul><li><a href="/members/quiet_quinn">quiet_quinn</a> Feb 9, 2024 <p>An excerpt repeated from a reply further down the topic, cut short.</p></li></ul></div>
</div>`;

describe('a forum thread with a topic overview between its posts', () => {
  const [first, ...rest] = POSTS.map(post);
  const html = threadPage(`${first}${overview}${rest.join('')}`);

  it('reads the page as a forum thread', () => {
    expect(processHtml(html, { url: THREAD_URL, formats: ['text'] }).metadata.pageType).toBe('forum');
  });

  it('keeps the posts and drops the overview widgets and their counts', () => {
    const out = threadText(html);
    for (const p of POSTS) expect(out).toContain(p.author);
    expect(out).toContain('Sentence 1 about tyre pressure');
    expect(out).not.toContain('Top Posters');
    expect(out).not.toContain('quiet_quinn');
    expect(out).not.toContain('Popular Days');
    expect(out).not.toContain('An excerpt repeated');
    expect(out).not.toContain('Views 3.1k');
  });
});
