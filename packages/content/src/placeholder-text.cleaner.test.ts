import { processHtml } from './index';

const text = (html: string): string =>
  processHtml(html, { url: 'https://site.test/guide/knots', formats: ['text'] }).text;
const story = [
  'The bowline makes a fixed loop at the end of a rope that will not slip or jam under load.',
  'Form a small overhand loop, pass the working end up through it, around the standing part, and back down.',
  'Dress the knot by pulling the loop and the standing part apart before you trust it with any weight.',
]
  .map((s) => `<p>${s} ${s}</p>`)
  .join('');
const filler =
  '<div class="slide"><h3>Slide title</h3><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p></div>';

describe('template placeholder text', () => {
  it('drops the block holding lorem ipsum filler and keeps the page around it', () => {
    const out = text(
      `<html><body><article><h1>Tying a bowline</h1>${story}${filler}</article></body></html>`,
    );
    expect(out).toContain('The bowline makes a fixed loop');
    expect(out).toContain('Dress the knot');
    expect(out).not.toContain('Lorem ipsum');
  });

  it('keeps a long block that holds the filler beside its own text', () => {
    const mixed = `<div>${'A long paragraph of real text about knots and ropes. '.repeat(30)}<span>Lorem ipsum dolor sit amet.</span></div>`;
    const out = text(`<html><body><article><h1>Tying a bowline</h1>${story}${mixed}</article></body></html>`);
    expect(out).toContain('A long paragraph of real text');
  });

  it('keeps a page that only mentions the phrase in passing', () => {
    const about = '<p>Designers call their filler text lorem ipsum, after a garbled passage of Cicero.</p>';
    const out = text(`<html><body><article><h1>Tying a bowline</h1>${story}${about}</article></body></html>`);
    expect(out).toContain('filler text lorem ipsum');
  });
});
