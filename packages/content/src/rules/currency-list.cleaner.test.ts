import { processHtml } from '../index';

// A shop's currency plugin prints the price in many currencies under it; a pricing table in a
// few currencies and a sentence naming codes are the page's own.
const text = (main: string): string =>
  processHtml(
    `<html><head><title>Lamp</title></head><body><main><h1>Brass desk lamp</h1>
     <p>A brass desk lamp with a linen shade and a dimmer on the cord, made to order in our workshop.</p>${main}</main></body></html>`,
    { url: 'https://shop.example.com/products/brass-lamp', formats: ['text'] },
  ).text ?? '';

const converter = `<div class="price">€132.34<ul class="price-info">${[
  ['AED', '549.56AED'],
  ['GBP', '£110.82'],
  ['AUD', '$232.60'],
  ['KWD', '46.060'],
  ['USD', '$149.64'],
  ['CAD', '$206.74'],
  ['SGD', '$192.64'],
]
  .map(([c, a]) => `<li><b>${c}</b>: <span>${a}</span></li>`)
  .join('')}</ul></div>`;

describe('currency converter lists', () => {
  it('go, the price itself stays', () => {
    const out = text(converter);
    expect(out).toContain('€132.34');
    expect(out).not.toContain('AUD');
    expect(out).not.toContain('549.56');
    expect(out).toContain('linen shade');
  });

  it('a table of a few currencies and a sentence naming codes stay', () => {
    const out = text(`<h2>Prices</h2><ul><li>USD 49.00</li><li>EUR 45.00</li><li>GBP 39.00</li></ul>
      <p>We bill in USD, EUR, GBP, AUD, CAD and JPY: your card is charged in the currency you pick.</p>`);
    expect(out).toContain('EUR 45.00');
    expect(out).toContain('We bill in USD, EUR, GBP, AUD, CAD and JPY');
  });
});
