import { processHtml } from '../index';

const URL = 'https://www.example.com/services/data-consulting';

// A consultancy's service page: sections on the service, then a slider of teasers for the
// firm's articles, its heading in a column of a container of its own.
const section = (i: number, title: string): string => `<section class="s${i}">
  <h2>${title}</h2>
  <p>We help finance and operations teams bring their data together, agree on what each number means, and build reports leaders trust.</p>
  <p>Our consultants work beside your people, so the practices stay when the project ends.</p>
</section>`;
const teaser = (
  i: number,
): string => `<div class="card"><a href="/insights/report-${i}"><h3>Survey ${i}: where data programmes stall</h3></a>
  <span>${i + 2} min read</span><p>Our annual survey of data leaders shows where programmes stall and what the leaders who finish them do differently.</p></div>`;

const page = (heading: string): string => `<html><head><title>Data consulting</title></head><body>
  <header><nav><a href="/services">Services</a><a href="/contact">Contact</a></nav></header>
  <main>
    <h1>Data consulting</h1>
    ${section(1, 'Data strategy')}
    ${section(2, 'Reporting and dashboards')}
    ${section(3, 'Data governance')}
    ${section(4, 'Analytics platforms')}
    <div class="story-slider"><div class="container"><div class="columns"><div class="column">
      <h2>${heading}</h2></div></div></div>
      <div class="slider">${[1, 2, 3, 4].map(teaser).join('')}</div></div>
  </main>
  <footer><p>© Example Consulting</p></footer></body></html>`;

describe('blog teasers on service pages', () => {
  it('go when a heading names the featured articles', () => {
    const out = processHtml(page('Featured insights'), { url: URL, formats: ['text'] });
    expect(out.metadata.pageType).toBe('service');
    expect(out.text).toContain('Reporting and dashboards');
    expect(out.text).toContain('build reports leaders trust');
    expect(out.text).not.toContain('where programmes stall');
  });

  it('go when the section is named by a short overline above its headline', () => {
    const html = page('Survey of the year').replace(
      '<div class="column">',
      '<div class="column"><div class="intro"><p class="overline">From our blog</p></div>',
    );
    const out = processHtml(html, { url: URL, formats: ['text'] });
    expect(out.text).toContain('build reports leaders trust');
    expect(out.text).not.toContain('where programmes stall');
  });

  it('stay under a heading of the page itself', () => {
    const out = processHtml(page('Our research'), { url: URL, formats: ['text'] });
    expect(out.text).toContain('where programmes stall');
  });
});
