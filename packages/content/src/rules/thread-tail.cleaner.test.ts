import { POSTS, post, threadPage, threadText } from '../test-support/forum-page';

const tail = `<div class="join-prompt"><h3>Join the conversation</h3><p>You can post now and register later. If you have an account, sign in now to post with your account.</p></div>
  <div class="jump"><label>Go to</label> <a href="/forum/cars">Cars and driving</a> <a href="/forum/bikes">Bikes</a></div>`;

describe('a forum thread ends with its last post', () => {
  it('drops what the board prints after the last post', () => {
    const out = threadText(threadPage(POSTS.map(post).join(''), tail));
    expect(out).toContain('Sentence 1 about tyre pressure');
    expect(out).not.toContain('Join the conversation');
    expect(out).not.toContain('register later');
    expect(out).not.toContain('Cars and driving');
  });

  it('keeps posts that come after a break in the list (an ad between pages of posts)', () => {
    const first = POSTS.slice(0, 3).map(post).join('');
    const more = `<div class="more-posts">${post(POSTS[3]!, 3)}${post({ author: 'eve', date: 'Jan 5, 2024', body: 'Sentence about the last reply, with enough words, commas, and clauses to count here.' }, 4)}</div>`;
    const out = threadText(
      threadPage(`<div class="posts">${first}</div><div class="ad-slot-x">Buy tyres</div>${more}`),
    );
    expect(out).toContain('Sentence 1 about tyre pressure');
    expect(out).toContain('Sentence about the last reply');
  });

  it('drops the thread tool bar and statistics before the first post, not the title', () => {
    const bar =
      '<div class="topic-stats"><span>12 posts</span> <span>5 posters</span> <span>3.2k views</span> <a href="/watch">Watching</a></div>';
    const out = threadText(threadPage(bar + POSTS.map(post).join('')));
    expect(out).toContain('Winter tyres: worth it?');
    expect(out).toContain('Sentence 2 about studded tyres');
    expect(out).not.toContain('3.2k views');
  });

  it('reads camelCase class names as post names', () => {
    const posts = POSTS.map(
      (p, i) =>
        `<article id="elComment_${i}" class="cPost ipsComment"><div class="cAuthor"><a href="/profile/${p.author}">${p.author}</a></div><div class="cPostBody"><p>${p.body}</p></div></article>`,
    ).join('');
    const out = threadText(threadPage(`<div class="cTopic">${posts}</div>`, tail));
    expect(out).toContain('Sentence 1 about tyre pressure');
    expect(out).not.toContain('register later');
  });
});
