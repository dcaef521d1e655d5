/** Pages for the article-mode cleaner tests: prose enough to be an article, and its text output. */
import { processHtml } from '../index';

/** `n` sentences about `word`, long enough for the extractor to weigh them as prose. */
export const prose = (n: number, word: string): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');

/** A page that declares itself an article (`og:type`), with `body` as its body. */
export const articlePage = (title: string, body: string): string =>
  `<html><head><title>${title}</title><meta property="og:type" content="article"></head><body>${body}</body></html>`;

/** The page's plain-text output. */
export const textOf = (html: string, url = 'https://example.com/news/story.html'): string =>
  processHtml(html, { url, formats: ['text'] }).text;
