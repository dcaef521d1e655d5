import { extractLinks } from './extract-links';

describe('extractLinks', () => {
  const page = 'https://example.com/docs/intro';

  it('resolves and de-duplicates anchors by key with their text; the first spelling is fetched', () => {
    const html = `<html><head>
      <link rel="next" href="/docs/page-2"><link rel="stylesheet" href="/site.css">
      <link rel="alternate" hreflang="de" href="https://example.com/de/docs/intro">
      <link rel="alternate" type="application/rss+xml" href="/feed.xml">
    </head><body>
      <a href="getting-started">Getting <b>started</b>
      </a>
      <a href="/docs/getting-started#install">again</a>
      <a href="/docs/getting-started/">slash: another resource</a>
      <a href="https://Example.com:443/blog/?utm_source=x">Blog</a>
      <a href="/blog/">Blog again</a>
      <a href="#top">top</a><a href="mailto:a@example.com">mail</a><a href="javascript:void(0)">js</a>
      <a href="tel:+1">call</a><a>no href</a><a href="  ">blank</a>
      <a href="https://other.org/x?b=1&amp;a=2">Other</a>
      <area href="/map-area">
    </body></html>`;
    expect(extractLinks(html, page)).toEqual([
      {
        url: 'https://example.com/docs/page-2',
        key: 'https://example.com/docs/page-2',
        text: '',
        nofollow: false,
      },
      {
        url: 'https://example.com/de/docs/intro',
        key: 'https://example.com/de/docs/intro',
        text: '',
        nofollow: false,
      },
      {
        url: 'https://example.com/docs/getting-started',
        key: 'https://example.com/docs/getting-started',
        text: 'Getting started',
        nofollow: false,
      },
      {
        url: 'https://example.com/docs/getting-started/',
        key: 'https://example.com/docs/getting-started/',
        text: 'slash: another resource',
        nofollow: false,
      },
      {
        url: 'https://example.com/blog/',
        key: 'https://example.com/blog/',
        text: 'Blog',
        nofollow: false,
      },
      {
        url: 'https://other.org/x?b=1&a=2',
        key: 'https://other.org/x?a=2&b=1',
        text: 'Other',
        nofollow: false,
      },
      { url: 'https://example.com/map-area', key: 'https://example.com/map-area', text: '', nofollow: false },
    ]);
  });

  it('honours <base href> wherever it is', () => {
    const html = '<a href="a">A</a><base href="https://cdn.example.com/root/"><a href="b">B</a>';
    expect(extractLinks(html, page).map((l) => l.url)).toEqual([
      'https://cdn.example.com/root/a',
      'https://cdn.example.com/root/b',
    ]);
  });

  it('flags nofollow only when every occurrence is nofollow', () => {
    const html = `<a rel="nofollow" href="/x">x</a><a rel="NoFollow ugc" href="/y">y</a><a href="/y">y2</a>`;
    expect(extractLinks(html, page)).toEqual([
      { url: 'https://example.com/x', key: 'https://example.com/x', text: 'x', nofollow: true },
      { url: 'https://example.com/y', key: 'https://example.com/y', text: 'y', nofollow: false },
    ]);
  });

  it('survives broken markup and caps link text', () => {
    const html = `<a href="/long">${'word '.repeat(200)}<a href="/next">n</a><div><a href=/unquoted>u`;
    const links = extractLinks(html, page);
    expect(links.map((l) => l.url)).toEqual([
      'https://example.com/long',
      'https://example.com/next',
      'https://example.com/unquoted',
    ]);
    expect(links[0]?.text.length).toBeLessThanOrEqual(200);
    expect(extractLinks('', page)).toEqual([]);
  });
});
