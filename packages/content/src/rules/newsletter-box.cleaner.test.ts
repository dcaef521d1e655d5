import { processHtml } from '../index';

const URL = 'https://news.example.org/world';
const story = (i: number): string =>
  `<article class="story"><h2><a href="/world/story-${i}">Harbour town number ${i} opens its new ferry line</a></h2>
  <p>Residents of the town welcomed the first crossing on Monday, after years of delays and a vote on the budget.</p></article>`;
const page = (box: string): string =>
  `<html><body><main><h1>World news</h1>${Array.from({ length: 4 }, (_, i) => story(i)).join('')}${box}${Array.from(
    { length: 4 },
    (_, i) => story(4 + i),
  ).join('')}</main></body></html>`;
const text = (html: string): string => processHtml(html, { url: URL, formats: ['text'] }).text;

describe('newsletter sign-up boxes on a listing', () => {
  it('go: the sign-up control and the block around it that speaks of the inbox', () => {
    const out = text(
      page(
        '<div class="block"><div class="block_heading">Monthly updates</div><div class="card-text"><p>Get the latest graduate news straight to your inbox.</p><a href="/signup">Sign me up</a></div></div>',
      ),
    );
    expect(out).toContain('Harbour town number 7 opens its new ferry line');
    expect(out).not.toContain('straight to your inbox');
    expect(out).not.toContain('Sign me up');
    expect(
      text(page('<p><a href="/newsletter/world">Subscribe to the World Newsletter</a></p>')),
    ).not.toContain('World Newsletter');
  });

  it('stay when no sign-up control is in them, or the control offers no mail', () => {
    const out = text(
      page(
        '<div><p>Our newsletter archive holds every issue since 2009.</p><a href="/archive">Browse the archive</a></div><p><a href="/events">Register for the harbour festival</a></p>',
      ),
    );
    expect(out).toContain('newsletter archive');
    expect(out).toContain('Register for the harbour festival');
  });
});
