import { processHtml } from '../index';

const URL = 'https://shop.example.com/products/canvas-tote';
const pairs = (rows: Array<[string, string]>): string =>
  rows.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join('');

const PRODUCT = JSON.stringify({ '@context': 'https://schema.org', '@type': 'Product', name: 'Canvas Tote' });
const page = (dl: string): string => `<html><head>
  <script type="application/ld+json">${PRODUCT}</script></head><body><main>
  <h1>Canvas Tote</h1>
  <p>A heavy canvas tote with a flat base and long handles, made to carry a week of groceries or a
  laptop and a change of clothes. The seams are double stitched and the handles are reinforced
  where they meet the bag, so it keeps its shape after years of daily use.</p>
  <p class="price">$24.00</p><button>Add to cart</button>
  ${dl}
  </main></body></html>`;

describe('a template that dumps its custom fields as a definition list', () => {
  it('drops the list whose terms are code identifiers, keeps the description', () => {
    const dump = pairs([
      ['short_description:', 'Tote - 12 oz'],
      ['retail_price_tier1:', '$24.00_1–9 items'],
      ['cat_thumb_Natural:', 'https://cdn.example.com/thumbs/tote_natural.jpg'],
      ['cat_thumb_Black:', 'https://cdn.example.com/thumbs/tote_black.jpg'],
      ['bulk_grid_toggle_button1:', 'true'],
      ['weight:', 'Heavy'],
    ]);
    const out = processHtml(page(`<dl class="product-info hide">${dump}</dl>`), {
      url: URL,
      formats: ['text'],
    });
    expect(out.text).toContain('double stitched');
    expect(out.text).not.toContain('cat_thumb_Natural');
    expect(out.text).not.toContain('tote_black.jpg');
  });

  it('keeps a specification list labelled in words, and a short list whatever its terms', () => {
    const specs = pairs([
      ['Fabric', '12 oz cotton canvas'],
      ['Size', '40 × 38 × 12 cm'],
      ['Care', 'Machine wash cold'],
      ['Origin', 'Made in Portugal'],
    ]);
    const short = pairs([
      ['sku_code', 'TOTE-12'],
      ['batch_no', 'B-2291'],
    ]);
    const out = processHtml(page(`<dl>${specs}</dl><dl>${short}</dl>`), { url: URL, formats: ['text'] });
    expect(out.text).toContain('12 oz cotton canvas');
    expect(out.text).toContain('Made in Portugal');
    expect(out.text).toContain('TOTE-12');
  });
});

describe('an API reference listing its parameters under their code names', () => {
  it('keeps them: the list is the content there', () => {
    const params = pairs([
      ['user_id', 'The account the request acts for; every call needs it.'],
      ['max_tokens', 'The most tokens the answer may hold before it is cut.'],
      ['created_at', 'When the object was made, in seconds since the epoch.'],
      ['stop_sequences', 'Strings that end the answer as soon as one appears.'],
    ]);
    const html = `<html><body><main><h1>Create a message</h1>
      <p>Sends a message and returns the model's answer. The request names the model, the
      messages so far and the limits of the answer; the response holds the answer and its usage.</p>
      <h2>Parameters</h2><dl>${params}</dl></main></body></html>`;
    const out = processHtml(html, { url: 'https://docs.example.com/api/messages', formats: ['text'] });
    expect(out.text).toContain('max_tokens');
    expect(out.text).toContain('before it is cut');
  });
});
