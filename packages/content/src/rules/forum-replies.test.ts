import { POSTS, post, threadPage, threadText } from '../test-support/forum-page';

describe('a forum thread keeps the posts its markup names after discussions or comments', () => {
  // the opening post carries a badge class naming it the discussion's starter
  const opening = post(POSTS[0]!, 0).replace('class="message"', 'class="message is-discussionStarter"');
  const html = threadPage(
    opening +
      POSTS.slice(1)
        .map((p, i) => post(p, i + 1))
        .join(''),
  );

  it('keeps the opening post whose class reads as a discussion section', () => {
    const out = threadText(html);
    expect(out).toContain('Sentence 2 about studded tyres');
    expect(out).toContain('alpine_anna');
  });

  it('keeps the replies too', () => {
    expect(threadText(html)).toContain('Sentence 1 about tyre pressure');
  });

  it('still drops a comment section that is not one of the posts', () => {
    const comments =
      '<div class="comments"><ul><li>Nice thread, thanks for sharing it with all of us here.</li><li>Agreed, very helpful for the winter season ahead.</li></ul></div>';
    const withComments = threadPage(POSTS.map(post).join(''), comments);
    expect(threadText(withComments)).not.toContain('Nice thread');
  });
});
