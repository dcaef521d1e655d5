import { processHtml } from '../index';

const URL = 'https://links.example.org/newest';
const item = (
  i: number,
): string => `<tr class="story"><td>${i + 1}.</td><td><a href="https://blog${i}.example.net/post">A note on building tiny parsers, part ${i}</a> (blog${i}.example.net)</td></tr>
  <tr><td></td><td class="meta"><span>${i + 2} points</span> by <a href="/u/writer${i}">writer${i}</a> <a href="/i/${i}">${i + 3} hours ago</a> | <a href="/hide/${i}">hide</a> | <a href="/i/${i}">${i} comments</a></td></tr>`;

describe('item metadata lines of a listing', () => {
  it('go; the item titles stay', () => {
    const html = `<html><body><main><h1>Newest links</h1><table>${Array.from({ length: 8 }, (_, i) => item(i)).join('\n')}</table></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('listing');
    expect(out.text).toContain('A note on building tiny parsers, part 7');
    expect(out.text).not.toContain('writer3');
    expect(out.text).not.toContain('hours ago');
  });

  it('stay when only one line has that shape', () => {
    const rows = Array.from(
      { length: 8 },
      (_, i) => `<li><a href="/i/${i}">A note on building tiny parsers, part ${i}</a></li>`,
    ).join('');
    const html = `<html><body><main><h1>Newest links</h1><p class="by">12 points by editor | 3 hours ago | pinned</p><ul>${rows}</ul></main></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('12 points by editor');
  });
});
