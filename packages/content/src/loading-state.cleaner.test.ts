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
const page = (extra: string): string =>
  `<html><body><article><h1>Tying a bowline</h1>${story}${extra}</article></body></html>`;

describe('loading placeholders', () => {
  it('drops the label a script-filled slot shows before it loads', () => {
    const out = text(
      page(
        '<div class="slot"><span class="spinner">Loading...</span><span>Loading...</span></div><p>Loading comments…</p><div>Loading recommendations</div>',
      ),
    );
    expect(out).toContain('Dress the knot');
    expect(out).not.toContain('Loading');
  });

  it("drops the label left as loose text between a renderer's slots", () => {
    const out = text(page('<div><template></template>Loading...<template></template></div>'));
    expect(out).toContain('Dress the knot');
    expect(out).not.toContain('Loading');
  });

  it('keeps a heading or sentence about loading', () => {
    const out = text(
      page('<h2>Loading time of your pages</h2><p>Loading the rope evenly keeps it from slipping.</p>'),
    );
    expect(out).toContain('Loading time of your pages');
    expect(out).toContain('Loading the rope evenly');
  });
});
