import { processHtml } from '../index';

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

// A reference page of a docs site whose `<main>` opens with a block named "page-header": the
// page's title, a support note and the opening paragraphs, before the sections of members.
const member = (name: string): string => `<h2 id="${name}">${name}()</h2>
  <p>Calls ${name} on the connection and returns the result once the server has answered.</p>
  <pre><code>const result = socket.${name}(options);
console.log(result);</code></pre>`;

const docsPage = `<html><head><title>Socket - Web APIs</title></head><body>
  <header class="site-header"><a href="/">Docs</a><a href="/docs/guides">Guides</a><a href="/docs/api">API</a></header>
  <nav class="sidebar"><ul>${['Socket', 'Stream', 'Channel', 'Buffer', 'Queue', 'Timer', 'Worker']
    .map((n) => `<li><a href="/docs/api/${n.toLowerCase()}">${n}</a></li>`)
    .join('')}</ul></nav>
  <main id="content"><div class="page-header reference-header">
      <h1>Socket</h1>
      <p>Widely available: this interface works in every current browser.</p>
      <p>The Socket object opens a connection to a server and lets the page send and receive messages over it.</p>
      <p>To create a Socket, call its constructor with the address of the server.</p>
    </div>
    <section>${['send', 'close', 'open', 'ping'].map(member).join('')}</section>
  </main></body></html>`;

describe('the page header of documentation pages', () => {
  const out = processHtml(docsPage, { url: 'https://docs.example.com/docs/api/socket', formats: ['text'] });

  it('keeps the title and the opening paragraphs it holds', () => {
    expect(out.metadata.pageType).toBe('documentation');
    expect(out.text).toContain('The Socket object opens a connection to a server');
    expect(out.text).toContain('Calls send on the connection');
  });

  it('still drops the site header (mostly links)', () => {
    expect(out.text).not.toContain('Guides');
  });
});
