import { processHtml } from '../index';

const URL = 'https://tickets.example.net/find/jazz/';
const card = (i: number): string => `<li>
  <div class="event-desktop-card"><a href="/e/${i}"><h3>Late-night jazz trio at the harbour hall, show ${i}</h3></a>
    <p>Fri, May ${i + 1}, 9:00 PM</p><p>Harbour Hall Promotions, 1.2k followers</p></div>
  <div class="event-mobile-card"><a href="/e/${i}"><h3>Late-night jazz trio at the harbour hall, show ${i}</h3></a>
    <p>Fri, May ${i + 1}, 9:00 PM</p></div></li>`;

describe('responsive twins', () => {
  it('keeps one copy of each card a template renders for desktop and for mobile', () => {
    const html = `<html><body><main><h1>Jazz this month</h1>
      <ul>${Array.from({ length: 6 }, (_, i) => card(i)).join('\n')}</ul></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    for (const i of [0, 5]) {
      const name = `harbour hall, show ${i}`;
      expect(out.text.split(name)).toHaveLength(2);
    }
    expect(out.text).toContain('1.2k followers');
  });

  it('keeps a mobile-named block that has no desktop twin', () => {
    const html = `<html><body><main><h1>Jazz this month</h1>
      <div class="intro-mobile"><p>Our picks of the month, from quiet trios to big bands, all in one list.</p></div>
      <div class="intro-wide"><p>Tickets open on the first Monday of each month at noon.</p></div></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('quiet trios');
    expect(out.text).toContain('first Monday');
  });
  it('keeps the large-screen copy of a list a utility-class template renders twice', () => {
    const list = (v: string, cls: string): string =>
      `<div class="${cls}">${Array.from(
        { length: 6 },
        (_, i) =>
          `<article><h3><a href="/e/${i}">Late-night jazz trio at the harbour hall, show ${i}</a></h3><p>Fri, May ${i + 1}${v}</p></article>`,
      ).join('')}</div>`;
    for (const [large, small] of [
      ['hidden lg:block', 'lg:hidden'],
      ['d-none d-md-flex', 'd-md-none'],
    ]) {
      const html = `<html><body><main><h1>Jazz this month</h1>${list(' | 9:00 PM', large!)}${list(' · 9 PM', small!)}</main></body></html>`;
      const out = processHtml(html, { url: URL, formats: ['text'] });
      expect(out.metadata.pageType).toBe('listing');
      expect(out.text.split('harbour hall, show 5')).toHaveLength(2);
      expect(out.text).toContain('| 9:00 PM');
    }
  });

  it('keeps a small-screen block whose large-screen sibling says something else', () => {
    const html = `<html><body><main><h1>Jazz this month</h1>
      <div class="lg:hidden"><p>Swipe through our picks of the month, from quiet trios to big bands.</p></div>
      <div class="hidden lg:block"><p>Tickets open on the first Monday of each month at noon.</p></div></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('quiet trios');
  });
});
