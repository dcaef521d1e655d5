import { page, text } from '../test-support/knot-guide-page';

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
