import { Readable } from 'node:stream';
import { parseLastmod } from './sitemap-lastmod';
import { parseSitemapStream } from './sitemap-parser';

const iso = (d: Date | undefined) => d?.toISOString();

describe('parseLastmod', () => {
  it('reads a date-only value as the end of that day UTC (a month, a year: their end)', () => {
    expect(iso(parseLastmod('2026-12-01'))).toBe('2026-12-01T23:59:59.999Z');
    expect(iso(parseLastmod(' 2024-02-29 \n'))).toBe('2024-02-29T23:59:59.999Z');
    expect(iso(parseLastmod('2026-02'))).toBe('2026-02-28T23:59:59.999Z');
    expect(iso(parseLastmod('2026'))).toBe('2026-12-31T23:59:59.999Z');
  });

  it('applies the zone offset, to the end of the unit written', () => {
    expect(iso(parseLastmod('2026-12-01T10:20:30Z'))).toBe('2026-12-01T10:20:30.999Z');
    expect(iso(parseLastmod('2026-12-01T10:20:30+02:00'))).toBe('2026-12-01T08:20:30.999Z');
    expect(iso(parseLastmod('2026-12-01T22:00:00-05:30'))).toBe('2026-12-02T03:30:00.999Z');
    expect(iso(parseLastmod('2026-12-01T10:20+01:00'))).toBe('2026-12-01T09:20:59.999Z');
    expect(iso(parseLastmod('2026-12-01T10:20:30.5Z'))).toBe('2026-12-01T10:20:30.599Z');
    expect(iso(parseLastmod('2026-12-01T10:20:30.123Z'))).toBe('2026-12-01T10:20:30.123Z');
  });

  it('ignores garbage, impossible dates, absurd years and times without a zone', () => {
    for (const bad of [
      '',
      'yesterday',
      '2026-13-01',
      '2026-02-30',
      '2026-04-31',
      '2026-12-01T25:00:00Z',
      '2026-12-01T10:61Z',
      '2026-12-01T10:00:00+15:00',
      '2026-12-01T10:00:00',
      '2026-12-01 10:00:00Z',
      '1970-01-01',
      '0000-01-01',
      '12026-01-01',
      '2026-1-1',
      'Tue, 01 Dec 2026 10:00:00 GMT',
      '2026-12-01'.repeat(10),
    ])
      expect(parseLastmod(bad)).toBeUndefined();
  });
});

describe('parseSitemapStream: urlset lastmod', () => {
  const read = async (xml: string) => {
    const seen: Array<{ loc: string; type: string; lastmod?: string }> = [];
    const r = await parseSitemapStream(
      Readable.from([Buffer.from(xml)]),
      {
        onLoc(loc, type, lastmod) {
          seen.push({ loc, type, ...(lastmod ? { lastmod: lastmod.toISOString() } : {}) });
          return true;
        },
      },
      1_000_000,
    );
    return { kind: r.kind, seen };
  };

  it('reports each entry with its lastmod, before or after <loc>, and none when absent or invalid', async () => {
    const { kind, seen } = await read(`<?xml version="1.0"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://a.test/1</loc><lastmod>2026-11-30</lastmod></url>
  <url><lastmod>2026-11-30T08:00:00+01:00</lastmod><changefreq>daily</changefreq><loc>https://a.test/2</loc></url>
  <url><loc>https://a.test/3</loc></url>
  <url><loc>https://a.test/4</loc><lastmod>last tuesday</lastmod></url>
  <url><loc> https://a.test/5 </loc><lastmod> 2026-11-30T07:00:00Z </lastmod><priority>0.5</priority></url>
</urlset>`);
    expect(kind).toBe('urlset');
    expect(seen).toEqual([
      { loc: 'https://a.test/1', type: 'page', lastmod: '2026-11-30T23:59:59.999Z' },
      { loc: 'https://a.test/2', type: 'page', lastmod: '2026-11-30T07:00:00.999Z' },
      { loc: 'https://a.test/3', type: 'page' },
      { loc: 'https://a.test/4', type: 'page' },
      { loc: 'https://a.test/5', type: 'page', lastmod: '2026-11-30T07:00:00.999Z' },
    ]);
  });

  it('a namespaced urlset and an image loc do not confuse it; an index still reports children only', async () => {
    const { seen } =
      await read(`<s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="x">
<s:url><s:lastmod>2026-01-02</s:lastmod><image:image><image:loc>https://a.test/i.png</image:loc></image:image><s:loc>https://a.test/p</s:loc></s:url>
</s:urlset>`);
    expect(seen).toEqual([{ loc: 'https://a.test/p', type: 'page', lastmod: '2026-01-02T23:59:59.999Z' }]);
    const index = await read(
      `<sitemapindex><sitemap><loc>https://a.test/s1.xml</loc><lastmod>2026-01-02</lastmod></sitemap></sitemapindex>`,
    );
    expect(index.seen).toEqual([{ loc: 'https://a.test/s1.xml', type: 'sitemap' }]);
  });

  it('a file cut inside an entry still reports the loc it read', async () => {
    const { seen } = await read(
      `<urlset><url><loc>https://a.test/1</loc></url><url><lastmod>2026-01-02</lastmod><loc>https://a.test/2</loc>`,
    );
    expect(seen.map((s) => s.loc)).toEqual(['https://a.test/1', 'https://a.test/2']);
  });
});
