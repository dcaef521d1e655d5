import { page, text } from '../test-support/knot-guide-page';

describe('error states of page widgets', () => {
  it('drops the message a widget shows when its request failed', () => {
    const out = text(
      page(
        '<div class="lists"><p>There was an error retrieving your saved knots. Please try again.</p></div><div><span>Oops!</span> <span>Something went wrong. Please try again later.</span></div>',
      ),
    );
    expect(out).toContain('Dress the knot');
    expect(out).not.toContain('Please try again');
  });

  it('keeps a sentence about failing and trying again, and advice that goes on after it', () => {
    const out = text(
      page(
        '<p>If the loop slips, please try again.</p><p>If the knot jams or fails under load, please try again with a longer tail, then dress it.</p>',
      ),
    );
    expect(out).toContain('If the loop slips, please try again.');
    expect(out).toContain('please try again with a longer tail');
  });
});
