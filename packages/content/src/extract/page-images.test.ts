import { firstSrcsetCandidate, MAX_PAGE_IMAGES, pageLinkUrls, processHtml } from '../index';

const URL = 'https://example.com/blog/post.html';

const images = (html: string, url = URL): string[] | undefined =>
  processHtml(html, { url, formats: [], images: true }).images;
const links = (html: string, url = URL): string[] => {
  const found = processHtml(html, { url, formats: [], links: true }).links;
  if (!found) throw new Error('no links read');
  return pageLinkUrls(found, url);
};

describe('images format', () => {
  it('every image of the page, absolute, de-duplicated, in document order', () => {
    const html = `<html><head><meta property="og:image" content="/og.png"><link rel="icon" href="/fav.ico"></head>
      <body><nav><img src="/logo.svg"></nav>
      <article><img src="pics/a.jpg" alt="a"><p>text</p><img src="/blog/pics/a.jpg">
      <picture><source srcset="/hero.avif 1x, /hero@2x.avif 2x" type="image/avif"><img src="/hero.jpg"></picture>
      <img srcset=" https://img.test/w_100,h_50/c.jpg 1x, https://img.test/w_200,h_100/c.jpg 2x">
      <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" data-src="//cdn.test/lazy.png" data-srcset="/lazy-1.png 300w">
      <img src="  "><img><img src="ftp://files.test/x.png"><img src="javascript:alert(1)"></article>
      <video poster="/poster.jpg"><source src="/v.mp4"></video>
      <footer><img src="/logo.svg"><img src="HTTPS://EXAMPLE.com/Foot.PNG"></footer></body></html>`;
    expect(images(html)).toEqual([
      'https://example.com/logo.svg',
      'https://example.com/blog/pics/a.jpg',
      'https://example.com/hero.avif',
      'https://example.com/hero.jpg',
      'https://img.test/w_100,h_50/c.jpg',
      'https://cdn.test/lazy.png',
      'https://example.com/lazy-1.png',
      'https://example.com/Foot.PNG',
    ]);
  });

  it('relative URLs resolve against <base href>, itself relative to the page', () => {
    const html =
      '<html><head><base href="/static/v2/"></head><body><img src="a.png"><img src="/b.png"></body></html>';
    expect(images(html)).toEqual(['https://example.com/static/v2/a.png', 'https://example.com/b.png']);
  });

  it('only when asked, and none for a page without images', () => {
    expect(processHtml('<img src="/a.png">', { url: URL }).images).toBeUndefined();
    expect(images('<p>no pictures</p>')).toEqual([]);
  });

  it(`stops at ${MAX_PAGE_IMAGES} with a warning`, () => {
    const html = Array.from({ length: MAX_PAGE_IMAGES + 5 }, (_, i) => `<img src="/i${i}.png">`).join('');
    const out = processHtml(html, { url: URL, formats: [], images: true });
    expect(out.images).toHaveLength(MAX_PAGE_IMAGES);
    expect(out.images?.[MAX_PAGE_IMAGES - 1]).toBe(`https://example.com/i${MAX_PAGE_IMAGES - 1}.png`);
    expect(out.warning).toMatch(/images beyond 20000 were not listed/);
  });

  it.each([
    ['a.png 1x, b.png 2x', 'a.png'],
    ['  a.png', 'a.png'],
    [',, a.png 100w', 'a.png'],
    ['https://i.test/w_1,h_2/a.png 2x', 'https://i.test/w_1,h_2/a.png'],
    ['a.png,b.png', 'a.png,b.png'],
    ['a.png, b.png', 'a.png'],
    ['', undefined],
    [' , ', undefined],
  ])('first srcset candidate of %j is %j', (srcset, first) => {
    expect(firstSrcsetCandidate(srcset)).toBe(first);
  });
});

describe('links format', () => {
  it('every <a href> of the whole page, absolute, http(s) only, de-duplicated, in document order', () => {
    const html = `<html><head><link rel="next" href="/page/2"><link rel="stylesheet" href="/s.css"></head><body>
      <header><a href="/">Home</a><a href="about">About</a></header>
      <article><a href="#top">top</a><a href="/blog/about">About again</a><a href="https://other.test/x?q=1#frag">x</a>
      <a href="mailto:me@example.com">mail</a><a href="javascript:void(0)">js</a><a href="tel:+100">tel</a>
      <a>no href</a><a href="   ">blank</a><a href="//cdn.test/file.pdf">pdf</a></article>
      <map><area href="/area-link"></map>
      <footer><a href="/">Home again</a><a href="HTTPS://Example.COM/Contact">Contact</a></footer></body></html>`;
    expect(links(html)).toEqual([
      'https://example.com/',
      'https://example.com/blog/about',
      'https://other.test/x?q=1#frag',
      'https://cdn.test/file.pdf',
      'https://example.com/Contact',
    ]);
  });

  it('resolves against <base href> wherever it appears', () => {
    const html = '<body><a href="a">a</a><base href="https://docs.test/v1/"><a href="../b">b</a></body>';
    expect(links(html)).toEqual(['https://docs.test/v1/a', 'https://docs.test/b']);
  });
});
