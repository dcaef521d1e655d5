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
