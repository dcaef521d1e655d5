import { processHtml } from '@wcs/content';
import { watchedContent } from './monitor-check.processor';

const markdownOf = (body: string): string =>
  processHtml(`<html><body><main><h1>Prices</h1>${body}</main></body></html>`, {
    url: 'http://site.test/',
    formats: ['markdown'],
  }).markdown;

const PRICE = 'The basic plan costs ten dollars per month and includes email support for every customer.';

describe('watchedContent', () => {
  test('a line after a <br> is ignored alone, its neighbours in the paragraph kept', () => {
    const md = markdownOf(`<p>${PRICE}<br>Last updated: Monday<br>Open Monday to Friday.</p>`);
    expect(watchedContent(md, ['/^last updated/i'])).toBe(`Prices\n${PRICE} Open Monday to Friday.`);
    // Whatever the ignored line says, the text is the same.
    const later = markdownOf(`<p>${PRICE}<br>Last updated: Tuesday<br>Open Monday to Friday.</p>`);
    expect(watchedContent(later, ['/^last updated/i'])).toBe(watchedContent(md, ['/^last updated/i']));
    // Without rules the paragraph joins as the hash always did.
    expect(watchedContent(md)).toBe(`Prices\n${PRICE} Last updated: Monday Open Monday to Friday.`);
  });

  test('an anchored rule drops a list item counter', () => {
    const md = markdownOf('<ul><li>12 visitors</li><li>Free shipping</li></ul>');
    expect(watchedContent(md, ['/^\\d+ visitors$/'])).toBe('Prices\n- Free shipping');
  });
});
