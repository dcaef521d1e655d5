import type { Element } from 'domhandler';
import { computeStats } from '../dom/content-stats';
import { findAll, parseHtml } from '../dom/dom.util';
import { processHtml } from '../index';
import { cardFamilies } from './card-family';

const URL = 'https://events.example.org/find/online/';
/** A card is mostly link text: its title and date are one link, as on most result pages. */
const card = (cls: string, i: number): string =>
  `<div class="${cls}"><a href="/e/${i}"><h3>Evening workshop on river ecology, session ${i}</h3>
    <p>Thu, Apr ${i + 1}, 6:00 PM</p></a></div>`;
const page = (cls: string, n: number): string => `<html><body>
  <header><nav><a href="/">Home</a> <a href="/help">Help centre</a> <a href="/login">Log in</a></nav></header>
  <div class="results"><h1>Online events</h1><p>Talks, classes and meetups you can join from home.</p>
  ${Array.from({ length: n }, (_, i) => card(cls, i)).join('\n')}
  <div class="related-links"><a href="/x">Popular searches</a></div></div>
  <footer><p>Copyright and terms of use of this site, all rights reserved.</p></footer></body></html>`;

describe('cards named like chrome', () => {
  it('keeps search-result cards that hold the page: they are its items', () => {
    const out = processHtml(page('search-result-card', 8), { url: URL, formats: ['text'] });
    for (const i of [0, 3, 7]) expect(out.text).toContain(`river ecology, session ${i}`);
    expect(out.text).not.toContain('Copyright');
  });

  it('keeps recirculation modules that hold most of a page inside a region named as chrome', () => {
    const html = `<html><body><div class="page-search-wrapper"><h1>Dinner ideas</h1>
      ${Array.from({ length: 6 }, (_, i) => card('recirc-list', i)).join('\n')}</div>
      <footer><p>Copyright and terms of use of this site, all rights reserved.</p></footer></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    for (const i of [0, 5]) expect(out.text).toContain(`river ecology, session ${i}`);
  });

  it('still drops a few related cards beside the content', () => {
    const prose = '<p>The river survey counted herons, otters and kingfishers along the upper reach.</p>';
    const html = `<html><body><div class="results"><h1>Survey notes</h1>${prose.repeat(4)}
      ${Array.from({ length: 2 }, (_, i) => card('related-card', i)).join('\n')}</div></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('kingfishers');
    expect(out.text).not.toContain('river ecology');
  });

  it('keeps the one card region of a page whose every block is named like chrome', () => {
    const tile = (i: number): string =>
      `<div class="tile"><a href="/m/${i}"><h4>Mower M${i}</h4><h3>Quiet robotic mower for lawns up to ${i} acres</h3>
        <span>$ ${i},499.99</span></a></div>`;
    const menu = Array.from({ length: 24 }, (_, i) => `<a href="/c/${i}">Garden category ${i}</a>`).join(' ');
    const html = `<html><body><div class="site-header">${menu}<p>Free delivery on orders over $50 this month.</p></div>
      <section class="shop"><h1>Robotic mowers</h1><section class="related-products">
      ${Array.from({ length: 6 }, (_, i) => tile(i + 1)).join('\n')}</section></section>
      <div class="site-footer"><p>Copyright of the garden tools company, all rights reserved.</p>
      <p>Garden tools, mowers and spare parts shipped across the country from our two warehouses.</p>
      <p>Customer service is open on weekdays from nine to five, and on Saturday mornings.</p></div></body></html>`;
    const out = processHtml(html, { url: 'https://garden.example.com/robotic-mowers/', formats: ['text'] });
    for (const i of [1, 6]) expect(out.text).toContain(`lawns up to ${i} acres`);
    expect(out.text).not.toContain('Copyright');
  });
  it('keeps many teasers named promo among long menus: a news front', () => {
    const links = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/s/${i}">Section number ${i}</a></li>`,
    ).join('');
    const teaser = (i: number): string =>
      `<div class="PageList-items-item"><div class="PagePromo"><h3 class="PagePromo-title"><a href="/a/${i}">Harbour town number ${i} opens its ferry line</a></h3></div></div>`;
    // menus and sidebars named as chrome, not landmarks: they count in the page the teasers share
    const html = `<html><body><div class="site-menu"><ul>${links}</ul></div>
      <div><h1>Science</h1><div class="PageList-items">${Array.from({ length: 8 }, (_, i) => teaser(i)).join('')}</div></div>
      <div class="sidebar"><ul>${links}</ul></div></body></html>`;
    const out = processHtml(html, { url: URL, formats: ['text'] });
    for (const i of [0, 7]) expect(out.text).toContain(`Harbour town number ${i} opens its ferry line`);
  });
  it('keeps many widgets holding more than the unnamed text; a sidebar of them beside a story goes', () => {
    const links = Array.from(
      { length: 40 },
      (_, i) => `<li><a href="/s/${i}">Section number ${i}</a></li>`,
    ).join('');
    const widget = (i: number): string =>
      `<div class="widget"><h3><a href="/a/${i}">Harbour town number ${i} opens its ferry line</a></h3></div>`;
    const widgets = Array.from({ length: 8 }, (_, i) => widget(i)).join('');
    const front = `<html><body><div class="site-menu"><ul>${links}</ul></div>
      <div><h1>Science</h1><div class="items">${widgets}</div></div><div class="sidebar"><ul>${links}</ul></div></body></html>`;
    expect(processHtml(front, { url: URL, formats: ['text'] }).text).toContain('Harbour town number 7');
    const story =
      '<p>The river survey counted herons, otters and kingfishers along the upper reach of the valley.</p>'.repeat(
        8,
      );
    const blog = `<html><body><div class="site-menu"><ul>${links}</ul></div>
      <div><h1>Survey notes</h1>${story}</div><div class="side">${widgets}</div></body></html>`;
    const out = processHtml(blog, { url: URL, formats: ['text'] }).text;
    expect(out).toContain('kingfishers');
    expect(out).not.toContain('Harbour town number 7');
  });
  it('takes many widgets holding a third of the page even beside more unnamed text', () => {
    const widget = (i: number): string =>
      `<div class="widget"><a href="/a/${i}">Harbour town number ${i} opens its ferry line at dawn</a></div>`;
    const intro = '<p>Harbour towns along the coast report on their ferries, ports and markets.</p>';
    const families = (html: string): Set<string> => {
      const doc = parseHtml(html);
      const stats = computeStats(doc);
      const body = findAll(doc, (e) => e.name === 'body')[0]!;
      const found = findAll(body, (e) => !!e.attribs.class).map((e): [Element, string] => [
        e,
        e.attribs.class === 'widget' ? 'widget' : 'menu',
      ]);
      return cardFamilies(found, stats, stats.get(body)?.text ?? 0);
    };
    const widgets = Array.from({ length: 8 }, (_, i) => widget(i)).join('');
    // widgets about a third of the page, the unnamed text a little more
    const front = `<html><body><div class="site-menu">${intro.repeat(3)}</div>${intro.repeat(6)}${widgets}</body></html>`;
    expect(families(front).has('widget')).toBe(true);
    // the same widgets beside a long story are its sidebar
    expect(families(`<html><body>${intro.repeat(20)}${widgets}</body></html>`).has('widget')).toBe(false);
  });
});
