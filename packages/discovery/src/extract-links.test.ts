import { extractLinks, extractPageLinks, MAX_LINKS_PER_PAGE } from './extract-links';

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

  it(`keeps the first ${MAX_LINKS_PER_PAGE} links of a 100k-link page`, () => {
    // How fast (~130 ms; the whole page would be ~800 ms): bench/links.bench.ts.
    const links = Array.from({ length: 100_000 }, (_, i) => `<a href="/p/${i}">link ${i}</a>`).join('\n');
    const res = extractPageLinks(`<html><body>${links}</body></html>`, page);
    expect(res.truncated).toBe(true);
    expect(res.links).toHaveLength(MAX_LINKS_PER_PAGE);
    expect(res.links[0]).toEqual({
      url: 'https://example.com/p/0',
      key: 'https://example.com/p/0',
      text: 'link 0',
      nofollow: false,
    });
    expect(res.links.at(-1)?.url).toBe(`https://example.com/p/${MAX_LINKS_PER_PAGE - 1}`);
    // repeated links do not use the cap, but reading stops after 4 hrefs per allowed link
    const twice = '<a href="/a">a</a><a href="/b">b</a>';
    const dup = extractPageLinks(`${twice.repeat(5)}<a href="/c">c</a>`, page, { maxLinks: 3 });
    expect([dup.links.map((l) => l.url.slice(-2)), dup.truncated]).toEqual([['/a', '/b', '/c'], false]);
    const farm = extractPageLinks(`${twice.repeat(1_000)}<a href="/c">c</a>`, page, { maxLinks: 3 });
    expect([farm.links.map((l) => l.url.slice(-2)), farm.truncated]).toEqual([['/a', '/b'], true]);
    expect(
      extractPageLinks('<a href="/1"></a><a href="/2"></a><a href="/3"></a>', page, { maxLinks: 2 })
        .truncated,
    ).toBe(true);
  });

  it('reads 100k nested elements (closed or never closed) without recursion', () => {
    // Linear, not quadratic (htmlparser2's Parser: 1–8 s; this: ~30 ms): bench/links.bench.ts.
    const n = 100_000;
    const closed = `<body>${'<div>'.repeat(n)}<a href="/deep">deep</a>${'</div>'.repeat(n)}<a href="/after">after</a>`;
    const unclosed = `<body>${'<div><span>'.repeat(n)}<a href="/deep">deep &amp; down</a>`;
    for (const html of [closed, unclosed]) {
      const links = extractLinks(html, page);
      expect(links[0]).toMatchObject({ url: 'https://example.com/deep' });
    }
    expect(extractLinks(unclosed, page)[0]?.text).toBe('deep & down');
    expect(extractLinks(closed, page).map((l) => l.url)).toEqual([
      'https://example.com/deep',
      'https://example.com/after',
    ]);
  });

  it('ignores links inside script, style and comments; the first of duplicate attributes wins', () => {
    const html = `<script>document.write('<a href="/in-script">x</a>')</script><style>a[href="/s"]{}</style>
      <!-- <a href="/in-comment">x</a> --><a href="/first" href="/second" REL="NoFollow">F</a><A HREF='/up'>Up</A>`;
    expect(extractLinks(html, page)).toEqual([
      { url: 'https://example.com/first', key: 'https://example.com/first', text: 'F', nofollow: true },
      { url: 'https://example.com/up', key: 'https://example.com/up', text: 'Up', nofollow: false },
    ]);
  });

  it("reads the page's title and description on the same pass (the first <title> before <body> or an <svg>)", () => {
    const head = (html: string) => extractPageLinks(html, page).head;
    expect(
      head(`<html><head><title> Docs &amp;
        intro </title><meta name="viewport" content="x"><meta name="description" content="All  about it">
        <meta property="og:description" content="og"></head><body><svg><title>icon</title></svg></body></html>`),
    ).toEqual({ title: 'Docs & intro', description: 'All about it' });
    // og:* when the plain ones are missing; an <svg> title in the body is not the page's.
    expect(
      head(`<meta property="og:title" content="OG title"><meta property="og:description" content="OG desc">
        <body><svg><title>icon</title></svg></body>`),
    ).toEqual({ title: 'OG title', description: 'OG desc' });
    expect(head('<body><p>no head</p></body>')).toEqual({});
    expect(head(`<title>${'t'.repeat(2_000)}</title>`).title).toHaveLength(500);
  });
});
