import { rankBySearch, searchTier } from './map-search';

const c = (url: string, text = '') => ({ url, text });

describe('map search', () => {
  it('tiers: exact path segment, in the URL, in link text only, no match', () => {
    expect(searchTier(c('https://a.com/docs/intro'), 'docs')).toBe(0);
    expect(searchTier(c('https://a.com/docs.html'), 'DOCS')).toBe(0);
    expect(searchTier(c('https://a.com/getting-started'), 'getting started')).toBe(0);
    expect(searchTier(c('https://a.com/mydocs/intro'), 'docs')).toBe(1);
    expect(searchTier(c('https://docs.a.com/'), 'docs')).toBe(1);
    expect(searchTier(c('https://a.com/caf%C3%A9'), 'café')).toBe(0);
    expect(searchTier(c('https://a.com/x', 'Read the Docs'), 'docs')).toBe(2);
    expect(searchTier(c('https://a.com/x', 'nothing'), 'docs')).toBeNull();
  });

  it('ranks by tier, then URL length, then discovery order', () => {
    const ranked = rankBySearch(
      [
        c('https://a.com/x', 'Pricing plans'),
        c('https://a.com/blog/pricing-changes'),
        c('https://a.com/about'),
        c('https://a.com/en/pricing'),
        c('https://a.com/pricing'),
        c('https://a.com/b/pricingx'),
        c('https://a.com/a/pricingx'),
      ],
      'pricing',
    ).map((x) => x.url);
    expect(ranked).toEqual([
      'https://a.com/pricing',
      'https://a.com/en/pricing',
      'https://a.com/b/pricingx',
      'https://a.com/a/pricingx',
      'https://a.com/blog/pricing-changes',
      'https://a.com/x',
    ]);
  });
});
