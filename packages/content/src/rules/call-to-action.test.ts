import { articlePage, prose, textOf } from '../test-support/article-page';

const page = (extra: string): string =>
  articlePage(
    'Harbour reopens',
    `<article>
    <p>${prose(8, 'story')}</p><p>${prose(8, 'more')}</p>${extra}<p>${prose(6, 'end')}</p></article>`,
  );
const text = (html: string): string => textOf(html);

describe('short promotions that end in a call to action', () => {
  it('drops a short paragraph whose last sentence asks the reader to sign up', () => {
    const out = text(
      page('<p>Start your day with the Morning Brief. Sign up for the free daily newsletter.</p>'),
    );
    expect(out).toContain('Sentence 5 about end');
    expect(out).not.toContain('Morning Brief');
  });

  it('drops a short paragraph ending in "Click here for more information."', () => {
    const out = text(
      page(
        '<p>Get the monthly magazine delivered to your door. 12 issues for £11.99. Click here for more information.</p>',
      ),
    );
    expect(out).not.toContain('monthly magazine');
  });

  it('keeps a list item that is a step of instructions', () => {
    const out = text(
      page(`<ol><li>Open the harbour app on your phone and choose the ferry you want</li>
        <li>Sign up for the season pass using the same email as your ticket account</li></ol>`),
    );
    expect(out).toContain('Sign up for the season pass');
  });

  it('keeps a paragraph that only mentions signing up', () => {
    const out = text(
      page(
        '<p>More than 400 residents signed up for the ferry pass in its first week, the council said.</p>',
      ),
    );
    expect(out).toContain('signed up for the ferry pass');
  });
});
