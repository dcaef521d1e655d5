import { page, text } from '../test-support/knot-guide-page';

const filler =
  '<div class="slide"><h3>Slide title</h3><p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.</p></div>';

describe('template placeholder text', () => {
  it('drops the block holding lorem ipsum filler and keeps the page around it', () => {
    const out = text(page(filler));
    expect(out).toContain('The bowline makes a fixed loop');
    expect(out).toContain('Dress the knot');
    expect(out).not.toContain('Lorem ipsum');
  });

  it('keeps a long block that holds the filler beside its own text', () => {
    const mixed = `<div>${'A long paragraph of real text about knots and ropes. '.repeat(30)}<span>Lorem ipsum dolor sit amet.</span></div>`;
    const out = text(page(mixed));
    expect(out).toContain('A long paragraph of real text');
  });

  it('keeps a page that only mentions the phrase in passing', () => {
    const about = '<p>Designers call their filler text lorem ipsum, after a garbled passage of Cicero.</p>';
    const out = text(page(about));
    expect(out).toContain('filler text lorem ipsum');
  });
});
