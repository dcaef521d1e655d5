import { linksOf, storedLinks } from './page-history-links';

describe('page_history links', () => {
  const links = [
    { url: 'https://a.test/x', key: 'https://a.test/x', nofollow: false },
    { url: 'https://a.test/y?utm_source=z', key: 'https://a.test/y', nofollow: false },
    { url: 'https://a.test/n', key: 'https://a.test/n', nofollow: true },
  ];

  it('stores a followed link whose URL is its key as the key alone, the others in full', () => {
    expect(storedLinks(links)).toEqual([
      'https://a.test/x',
      ['https://a.test/y', 'https://a.test/y?utm_source=z', false],
      ['https://a.test/n', null, true],
    ]);
    expect(linksOf(JSON.parse(JSON.stringify(storedLinks(links))))).toEqual(links);
  });

  it('reads rows written as objects before', () => {
    expect(linksOf(links.map((l) => ({ ...l })))).toEqual(links);
  });

  it('reads nothing from a malformed value rather than part of it', () => {
    expect(linksOf(null)).toBeNull();
    expect(linksOf(['https://a.test/x', 3])).toBeNull();
    expect(linksOf([[1, null, false]])).toBeNull();
    expect(linksOf([{ url: 'https://a.test/x' }])).toBeNull();
  });
});
