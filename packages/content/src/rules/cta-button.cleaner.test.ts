import { processHtml } from '../index';

const URL = 'https://www.example.com/';

// A SaaS landing page: short sections, each closed by its buttons. The classifier reads it as a
// page of short sections (service), whose whole region is kept.
const section = (i: number, title: string): string => `<section class="s${i}">
  <h2>${title}</h2>
  <p>Teams of every size plan their week in one place, see who is doing what, and stop chasing updates in chat threads and email.</p>
  <p>Everything syncs in real time across web, desktop and phone, so the plan on the wall is the plan in your pocket.</p>
  <div class="actions"><a class="btn" href="/signup">Start free trial</a> <a class="btn" href="/demo">Book a demo</a></div>
</section>`;

const page = `<html><head><title>Planner — plan the week together</title></head><body>
  <header><nav><a href="/pricing">Pricing</a><a href="/login">Log in</a></nav></header>
  <main>
    <h1>Plan the week together</h1>
    ${section(1, 'One board for the whole team')}
    ${section(2, 'Real-time everywhere')}
    ${section(3, 'Reports without spreadsheets')}
    ${section(4, 'Integrations you already use')}
    ${section(5, 'Security for larger teams')}
    ${section(6, 'Support from real people')}
    <p>Questions about billing? <a href="/contact">Contact us</a> and we answer within a day.</p>
    <div><button>Get started</button></div>
  </main>
  <footer><p>© Planner Inc.</p></footer></body></html>`;

describe('call-to-action buttons on service pages', () => {
  const out = processHtml(page, { url: URL, formats: ['text'] });

  it('are dropped when they stand on a line of their own', () => {
    expect(out.metadata.pageType).toBe('service');
    expect(out.text).toContain('Reports without spreadsheets');
    expect(out.text).toContain('the plan on the wall is the plan in your pocket');
    expect(out.text).not.toContain('Start free trial');
    expect(out.text).not.toContain('Book a demo');
    expect(out.text).not.toContain('Get started');
  });

  it('stay inside a sentence', () => {
    expect(out.text).toContain('Questions about billing? Contact us and we answer within a day.');
  });
});

describe('call-to-action buttons on product pages', () => {
  it('a section\'s "Shop now" and "Learn more" go, the product\'s text stays', () => {
    const ld = `<script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Linen sheet set","offers":{"@type":"Offer","price":"180","priceCurrency":"USD"}}</script>`;
    const html = `<html><head><title>Linen sheet set</title>${ld}</head><body><main><h1>Linen sheet set</h1><p>$180.00</p>
      <p>Stonewashed European flax, soft from the first night and softer with every wash, in nine colours.</p>
      <section><h2>Made for warm sleepers</h2><p>Linen breathes and wicks moisture, so the bed stays cool through summer nights.</p>
      <div class="actions"><a class="btn" href="/collections/linen">Shop now</a></div></section>
      <section><h2>Certified fabric</h2><p>Every sheet is tested for harmful substances by an independent lab before it ships.</p>
      <div><a href="/certifications">Learn more</a></div></section></main></body></html>`;
    const out = processHtml(html, {
      url: 'https://shop.example.com/products/linen-sheet-set',
      formats: ['text'],
    });
    expect(out.metadata.pageType).toBe('product');
    expect(out.text).toContain('Linen breathes and wicks moisture');
    expect(out.text).not.toContain('Shop now');
    expect(out.text).not.toContain('Learn more');
  });
});
