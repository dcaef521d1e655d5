import { NOT_A_PAGE } from './link-filter';

describe('NOT_A_PAGE (links a crawl does not follow)', () => {
  it.each(['/report.pdf', '/Report.PDF', '/letters/offer.docx', '/about', '/blog/post.html', '/page.php'])(
    '%s is followed',
    (path) => {
      expect(NOT_A_PAGE.test(path)).toBe(false);
    },
  );

  it.each(['/logo.png', '/archive.zip', '/old.doc', '/sheet.xlsx', '/deck.pptx', '/app.js', '/data.csv'])(
    '%s is not followed',
    (path) => {
      expect(NOT_A_PAGE.test(path)).toBe(true);
    },
  );
});
