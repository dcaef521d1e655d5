/**
 * An article page for the every-page cleaners' tests (placeholder text, loading and error states):
 * three paragraphs of a knot-tying guide, plus whatever a test puts after them.
 */
import { processHtml } from '../index';

/** The page's text as the service returns it (main content, text format). */
export const text = (html: string): string =>
  processHtml(html, { url: 'https://site.test/guide/knots', formats: ['text'] }).text;

const story = [
  'The bowline makes a fixed loop at the end of a rope that will not slip or jam under load.',
  'Form a small overhand loop, pass the working end up through it, around the standing part, and back down.',
  'Dress the knot by pulling the loop and the standing part apart before you trust it with any weight.',
]
  .map((s) => `<p>${s} ${s}</p>`)
  .join('');

/** The guide with `extra` after its paragraphs, inside the article. */
export const page = (extra: string): string =>
  `<html><body><article><h1>Tying a bowline</h1>${story}${extra}</article></body></html>`;
