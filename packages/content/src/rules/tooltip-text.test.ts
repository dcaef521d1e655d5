import { articlePage, prose, textOf } from '../test-support/article-page';

// A specifications table whose labels carry a hover bubble explaining the term, in the three
// common markups: role=tooltip, a w3schools-style 'tooltiptext' span, a custom element's
// '__content' part; and a glossary term whose own element is named 'tooltip'.
const page = articlePage(
  'Open-back headphones',
  `<article><h1>Open-back headphones</h1><p>${prose(5, 'headphones')}</p>
  <table><tr><th>Impedance <span role="tooltip">Usually between 8 and 600 ohm; most consumer pairs have 32.</span></th><td>70 ohms</td></tr>
  <tr><th><span class="tooltip">Driver type<span class="tooltiptext">The part that turns the signal into sound.</span></span></th><td>Planar magnetic</td></tr>
  <tr><th>Cup style <tool-tip class="tool-tip"><div class="tool-tip__content">Open designs leak sound and isolate poorly.</div></tool-tip></th><td>Open-back</td></tr></table>
  <p>${prose(3, 'listening')}</p></article>`,
);

describe('tooltip bubbles', () => {
  const out = textOf(page);

  it('go: the hover text of role=tooltip and of a widget’s bubble part', () => {
    expect(out).not.toContain('Usually between 8 and 600 ohm');
    expect(out).not.toContain('turns the signal into sound');
    expect(out).not.toContain('Open designs leak sound');
  });

  it('while the labels, their values and the term a tooltip widget wraps stay', () => {
    for (const t of ['Impedance', '70 ohms', 'Driver type', 'Planar magnetic', 'Cup style', 'Open-back'])
      expect(out).toContain(t);
    expect(out).toContain('Sentence 2 about listening');
  });
});
