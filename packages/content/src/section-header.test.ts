import { processHtml } from './index';

const URL = 'https://www.example.com/';

// A landing page whose sections open with a block named "section-header" (heading + subtitle),
// and whose masthead is a div named "site-header" (logo and menu links).
const section = (i: number, title: string): string => `<section>
  <div class="section-header"><h2>${title}</h2><p>Subtitle ${i}: the short line under the heading.</p></div>
  <div class="cols"><div><p>Teams plan their week in one place and see who is doing what.</p></div>
  <div><p>Everything syncs in real time across web, desktop and phone.</p></div></div>
</section>`;

const page = `<html><head><title>Planner</title></head><body>
  <div class="site-header"><a href="/"><h1>Planner</h1></a><a href="/features">Features</a><a href="/pricing">Pricing</a>
    <a href="/customers">Customers</a><a href="/login">Log in to your account</a></div>
  <div class="page">
    <section><header><h2>Built for field teams</h2><p>Offline first: plans open without a signal.</p></header>
      <p>Crews on the road see the day's jobs even in a tunnel, and changes sync when they are back online.</p></section>
    ${['One board for the whole team', 'Real-time everywhere', 'Reports without spreadsheets', 'Integrations you already use', 'Security for larger teams', 'Support from real people'].map((t, i) => section(i, t)).join('')}
  </div></body></html>`;

describe('section headers of service pages', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('are kept: a heading and words, not a masthead', () => {
    expect(out.metadata.pageType).toBe('service');
    expect(out.text).toContain('Reports without spreadsheets');
    expect(out.text).toContain('Subtitle 3: the short line under the heading.');
    expect(out.text).toContain('Offline first: plans open without a signal.');
  });

  it('do not bring back the site header (mostly links)', () => {
    expect(out.text).not.toContain('Log in to your account');
  });
});
