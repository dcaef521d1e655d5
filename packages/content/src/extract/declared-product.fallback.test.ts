import { processHtml } from '../index';

const URL = 'https://shop.example.com/products/trail-kettle';
const ld = (o: object): string => `<script type="application/ld+json">${JSON.stringify(o)}</script>`;
const PRODUCT = {
  '@context': 'https://schema.org',
  '@type': 'Product',
  name: 'Trail Kettle 1.2 l',
  description:
    '<p>A light steel kettle for camp stoves, with a folding handle &amp; a pouring spout.</p><p>Boils a litre in four minutes.</p>',
  brand: { '@type': 'Brand', name: 'Northpeak' },
  additionalProperty: [
    { '@type': 'PropertyValue', name: 'Capacity', value: '1.2', unitText: 'l' },
    { '@type': 'PropertyValue', name: 'Weight', value: '310 g' },
  ],
  offers: {
    '@type': 'Offer',
    price: '34.90',
    priceCurrency: 'EUR',
    availability: 'https://schema.org/InStock',
  },
};
/** A script-rendered shop page: an app root the scripts would fill, nothing else visible. */
const shell = (head: string): string =>
  `<html><head><title>Trail Kettle | Shop</title>${head}</head><body><div id="app"></div><script src="/app.js"></script></body></html>`;
const md = (html: string): string => processHtml(html, { url: URL, formats: ['markdown'] }).markdown;

describe('declared product on a script-rendered page', () => {
  it('renders name, price, description and properties when the page shows nothing', () => {
    const out = md(shell(ld(PRODUCT)));
    expect(out).toContain('# Trail Kettle 1.2 l');
    expect(out).toContain('Price: 34.90 EUR');
    expect(out).toContain('A light steel kettle for camp stoves, with a folding handle & a pouring spout.');
    expect(out).toContain('Boils a litre in four minutes.');
    expect(out).toContain('- Brand: Northpeak');
    expect(out).toContain('- Capacity: 1.2 l');
    expect(out).toContain('- Weight: 310 g');
  });

  it('reads an aggregate offer as a price range and products inside a @graph', () => {
    const graph = {
      '@context': 'https://schema.org',
      '@graph': [
        { '@type': 'WebPage', name: 'Trail Kettle' },
        {
          ...PRODUCT,
          offers: { '@type': 'AggregateOffer', lowPrice: 29, highPrice: 39, priceCurrency: 'USD' },
        },
      ],
    };
    expect(md(shell(ld(graph)))).toContain('Price: 29–39 USD');
  });

  it('leaves pages that show their product alone', () => {
    const body = `<main><h1>Trail Kettle 1.2 l</h1><p>${'Our own words about this kettle, shown on the page. '.repeat(8)}</p></main>`;
    const out = md(`<html><head>${ld(PRODUCT)}</head><body>${body}</body></html>`);
    expect(out).toContain('Our own words about this kettle');
    expect(out).not.toContain('Price: 34.90 EUR');
  });

  it('gives a page that renders only the name, a price and a cart button its description, nothing else', () => {
    // the description is what a script would have rendered (product.cleaner.ts: THIN_PRODUCT);
    // the page's own name and price stay, the declared ones are not repeated
    const rendered = `<html><head>${ld(PRODUCT)}</head><body><main><h1>Trail Kettle 1.2 l</h1><p>€34.90</p><button>Add to cart</button></main></body></html>`;
    const out = md(rendered);
    expect(out).toContain('Trail Kettle 1.2 l');
    expect(out).toContain('A light steel kettle');
    expect(out).not.toContain('Price: 34.90 EUR');
  });

  it('prefers a declared article body, and adds nothing for a name alone', () => {
    const article = {
      '@type': 'Article',
      articleBody: 'The article body declared for readers without scripts.',
    };
    expect(md(shell(ld(article) + ld(PRODUCT)))).toContain('The article body declared');
    expect(md(shell(ld({ '@type': 'Product', name: 'Trail Kettle' })))).toBe('');
  });
});
