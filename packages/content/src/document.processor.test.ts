import { cleanMarkdownForHash, processDocument, processHtml } from './index';

const URL = 'https://example.com/blog/post.html';
const prose = (n: number, word = 'content'): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');

const page = (
  main: string,
  extra = '',
): string => `<!doctype html><html lang="en"><head><title>Page</title></head><body>
<nav class="site-nav"><a href="/">Home</a> <a href="/about">About us</a></nav>
<div class="cookie-banner">We use cookies to improve your experience. Accept all cookies</div>
<article class="post">${main}</article>
<aside class="sidebar"><h3>Popular</h3><a href="/a">Other story</a></aside>
<footer>Copyright 2024 Example Corp. All rights reserved.</footer>${extra}</body></html>`;

describe('markdown', () => {
  it('renders data tables as GFM with escaped pipes and a header row', () => {
    const html = page(`<p>${prose(4)}</p><table><thead><tr><th>Name</th><th>Value</th></tr></thead>
      <tbody><tr><td>a|b</td><td>1</td></tr><tr><td>c</td><td>2</td></tr></tbody></table>`);
    const { markdown } = processHtml(html, { url: URL });
    expect(markdown).toContain('| Name | Value |\n| --- | --- |\n| a\\|b | 1 |\n| c | 2 |');
  });

  it('uses the first row as header when there are no th cells', () => {
    const html = page(
      `<p>${prose(4)}</p><table><tr><td>x</td><td>y</td></tr><tr><td>1</td><td>2</td></tr></table>`,
    );
    expect(processHtml(html, { url: URL }).markdown).toContain('| x | y |\n| --- | --- |\n| 1 | 2 |');
  });

  it('fences code blocks with the language from the class', () => {
    const html =
      page(`<p>${prose(4)}</p><pre><code class="language-python">def f():\n    return 1 < 2\n</code></pre>
      <pre class="lang-rust">fn main() {}</pre><div class="highlight-js"><pre>let x = 1;</pre></div>`);
    const { markdown } = processHtml(html, { url: URL });
    expect(markdown).toContain('```python\ndef f():\n    return 1 < 2\n```');
    expect(markdown).toContain('```rust\nfn main() {}\n```');
    expect(markdown).toContain('```js\nlet x = 1;\n```');
  });

  it('resolves relative links and images against <base href>, then the page url', () => {
    const withBase = `<html><head><base href="https://cdn.example.org/root/"></head><body><article>
      <p>${prose(3)} <a href="doc.html">the doc</a> <img src="img/a.png" alt="A"></p></article></body></html>`;
    const md = processHtml(withBase, { url: URL }).markdown;
    expect(md).toContain('[the doc](https://cdn.example.org/root/doc.html)');
    expect(md).toContain('![A](https://cdn.example.org/root/img/a.png)');
    const plain = processHtml(page(`<p>${prose(3)} <a href="../x?q=1">rel</a></p>`), { url: URL });
    expect(plain.markdown).toContain('[rel](https://example.com/x?q=1)');
    expect(plain.html).toContain('href="https://example.com/x?q=1"');
  });

  it('drops empty links and javascript: hrefs, keeps headings as ATX and nested lists', () => {
    const html =
      page(`<h2>Section <em>two</em></h2><p>${prose(3)} <a href="/e"> </a><a href="javascript:void(0)">click</a></p>
      <ul><li>one<ul><li>nested</li></ul></li><li>two</li></ul><ol start="3"><li>three</li><li>four</li></ol>
      <blockquote><p>quoted words here</p></blockquote>`);
    const md = processHtml(html, { url: URL }).markdown;
    expect(md).toContain('## Section *two*');
    expect(md).not.toMatch(/\[\s*\]\(/);
    expect(md).not.toContain('javascript:');
    expect(md).toContain('click');
    expect(md).toContain('- one\n  - nested\n- two');
    expect(md).toContain('3. three\n4. four');
    expect(md).toContain('> quoted words here');
  });

  it('decodes entities, collapses whitespace and never leaves two blank lines in a row', () => {
    const html =
      page(`<p>Caf&eacute; &amp; cr&egrave;me &mdash; &#8220;quoted&#8221;   text&nbsp;here, ${prose(3)}</p>
      <p></p><p>   </p><div><br><br></div><p>${prose(2, 'after')}</p>`);
    const md = processHtml(html, { url: URL }).markdown;
    expect(md).toContain('Café & crème — “quoted” text here,');
    expect(md).not.toMatch(/\n{3,}/);
    expect(md).not.toMatch(/ {3,}/);
  });
});

describe('main content', () => {
  it('strips nav, sidebar, footer and cookie banners', () => {
    const out = processHtml(page(`<h1>Title</h1><p>${prose(6)}</p><p>${prose(5, 'more')}</p>`), { url: URL });
    expect(out.text).toContain('Sentence 5 about content');
    for (const junk of ['About us', 'cookies', 'Other story', 'Copyright']) {
      expect(out.markdown).not.toContain(junk);
      expect(out.text).not.toContain(junk);
    }
  });

  it('keeps nav and footer when onlyMainContent is false, but never scripts or styles', () => {
    const html = page(
      `<p>${prose(3)}</p>`,
      '<script>var secret = 1;</script><style>.x{}</style><svg><text>svgtext</text></svg>',
    );
    const out = processHtml(html, { url: URL, onlyMainContent: false });
    expect(out.markdown).toContain('[About us](https://example.com/about)');
    expect(out.text).toContain('Copyright 2024');
    expect(out.html).not.toContain('secret');
    expect(out.text).not.toContain('svgtext');
  });

  it('takes the whole product grid on pages without a prose body', () => {
    const items = Array.from(
      { length: 12 },
      (_, i) =>
        `<li class="card"><a href="/p/${i}">Product number ${i}</a><span class="price">$${i}.99</span></li>`,
    ).join('');
    const html = `<html><body><header><a href="/">Shop</a></header><main><h1>All mugs</h1><ul class="grid">${items}</ul></main>
      <footer>Footer links</footer></body></html>`;
    const { text } = processHtml(html, { url: URL });
    expect(text).toContain('Product number 0');
    expect(text).toContain('Product number 11');
    expect(text).toContain('$11.99');
    expect(text).not.toContain('Footer links');
  });

  it('strips event handlers and inline styles from cleaned html', () => {
    const html = page(
      `<p onclick="evil()" style="color:red">${prose(4)}</p><img src="/a.png" onerror="x()">`,
    );
    const out = processHtml(html, { url: URL, formats: ['html'] });
    expect(out.html).not.toMatch(/onclick|onerror|style=/);
    expect(out.html).toContain('src="https://example.com/a.png"');
    expect(out.markdown).toBe('');
  });
});

describe('metadata', () => {
  it('reads title, description, language, canonical, og:image, author and date', () => {
    const html = `<html lang="de-DE"><head><title> My  Title </title>
      <meta name="description" content="A page about things">
      <meta property="og:title" content="OG Title"><meta property="og:image" content="/og.png">
      <link rel="canonical" href="/canonical-path"><meta name="author" content="Ada">
      <meta property="article:published_time" content="2024-01-02T03:04:05Z"></head><body><p>x</p></body></html>`;
    const { metadata } = processHtml(html, {
      url: URL,
      statusCode: 200,
      sourceUrl: 'http://example.com/start',
    });
    expect(metadata).toMatchObject({
      title: 'My Title',
      description: 'A page about things',
      language: 'de-DE',
      canonicalUrl: 'https://example.com/canonical-path',
      ogImage: 'https://example.com/og.png',
      author: 'Ada',
      publishedTime: '2024-01-02T03:04:05Z',
      statusCode: 200,
      sourceURL: 'http://example.com/start',
      finalUrl: URL,
    });
  });

  it('falls back to og tags, content-language meta and JSON-LD', () => {
    const html = `<html><head><meta property="og:title" content="OG Title"><meta property="og:description" content="OG desc">
      <meta http-equiv="content-language" content="fr"><script type="application/ld+json">
      {"@graph":[{"@type":"Article","author":{"name":"Grace"},"datePublished":"2023-05-06"}]}</script></head><body></body></html>`;
    const { metadata } = processHtml(html, { url: URL });
    expect(metadata.title).toBe('OG Title');
    expect(metadata.description).toBe('OG desc');
    expect(metadata.language).toBe('fr');
    expect(metadata.author).toBe('Grace');
    expect(metadata.publishedTime).toBe('2023-05-06');
    expect(metadata.sourceURL).toBe(URL);
    expect(metadata.canonicalUrl).toBeNull();
  });
});

describe('robustness', () => {
  it('treats input as an already-decoded string whatever the declared charset', () => {
    const html = `<html><head><meta charset="iso-8859-1"></head><body><article><p>Zürich, Ærø, Ελληνικά, 日本語のテキスト, ${prose(3)}</p></article></body></html>`;
    expect(processHtml(html, { url: URL }).text).toContain('Zürich, Ærø, Ελληνικά, 日本語のテキスト');
  });

  it('never throws on garbage', () => {
    const junk = [
      '',
      '<',
      '<<<>>>',
      '\u0000\u0001\ufffd',
      '<html><body><table><tr><td><ul><li>',
      '<a href="http://[::1">x</a>',
    ];
    let bin = '';
    for (let i = 0; i < 5000; i++) bin += String.fromCharCode((i * 7919) % 65536);
    junk.push(bin);
    for (const j of junk) {
      const out = processHtml(j, { url: 'not a url', formats: ['markdown', 'html', 'text', 'json'] });
      expect(typeof out.markdown).toBe('string');
      expect(out.json?.blocks).toBeDefined();
    }
  });

  it('bounds huge pages: inline scripts and data go first, the content stays', () => {
    const script = `<script>var blob = "${'x'.repeat(6_000_000)}";</script>`;
    const html = page(`<p>${prose(5)}</p><img src="data:image/png;base64,${'A'.repeat(100_000)}">`, script);
    const out = processHtml(html, { url: URL });
    expect(out.text).toContain('Sentence 4 about content');
    expect(out.html.length).toBeLessThan(10_000);
  });

  it('survives 100k levels of nesting without overflowing the stack', () => {
    const depth = 100_000;
    const html = `<html><body>${'<div>'.repeat(depth)}<p>deep text, here, and here</p>${'</div>'.repeat(depth)}</body></html>`;
    const out = processHtml(html, { url: URL, formats: ['markdown', 'html', 'text', 'json'] });
    expect(out.text).toContain('deep text');
    const whole = processHtml(html, { url: URL, onlyMainContent: false });
    expect(whole.markdown).toContain('deep text');
  });
});

describe('structured json', () => {
  it('returns typed blocks, headings and links only when asked', () => {
    const html = page(`<h2>Intro</h2><p>${prose(3)} <a href="/ref">ref</a></p><ul><li>a</li><li>b</li></ul>
      <pre><code class="language-go">package main</code></pre><table><tr><th>k</th><th>v</th></tr><tr><td>1</td><td>2</td></tr></table>`);
    expect(processHtml(html, { url: URL }).json).toBeUndefined();
    const json = processHtml(html, { url: URL, formats: ['json'] }).json!;
    expect(json.headings).toEqual([{ level: 2, text: 'Intro' }]);
    expect(json.blocks.map((b) => b.type)).toEqual(['heading', 'paragraph', 'list', 'code', 'table']);
    expect(json.blocks[2]).toMatchObject({ items: ['a', 'b'], ordered: false });
    expect(json.blocks[3]).toMatchObject({ language: 'go', text: 'package main' });
    expect(json.blocks[4]?.rows).toEqual([
      ['k', 'v'],
      ['1', '2'],
    ]);
    expect(json.links).toEqual([{ url: 'https://example.com/ref', text: 'ref' }]);
  });
});

describe('processDocument', () => {
  it('pretty-prints JSON in a fenced block', () => {
    const out = processDocument(
      { body: '{"a":1,"b":[2]}', contentType: 'application/json; charset=utf-8', url: URL },
      {},
    );
    expect(out.markdown).toBe('```json\n{\n  "a": 1,\n  "b": [\n    2\n  ]\n}\n```');
    expect(out.metadata.finalUrl).toBe(URL);
  });

  it('passes text through and sends xhtml to the html pipeline', () => {
    expect(
      processDocument({ body: '# Title\n\nbody', contentType: 'text/markdown', url: URL }, {}).markdown,
    ).toBe('# Title\n\nbody');
    const t = processDocument({ body: 'a < b', contentType: 'text/plain', url: URL, statusCode: 201 }, {});
    expect(t.text).toBe('a < b');
    expect(t.html).toBe('<pre>a &lt; b</pre>');
    expect(t.metadata.statusCode).toBe(201);
    const x = processDocument(
      {
        body: `<html><head><title>X</title></head><body><p>${prose(3)}</p></body></html>`,
        contentType: 'application/xhtml+xml',
        url: URL,
      },
      {},
    );
    expect(x.metadata.title).toBe('X');
    expect(x.text).toContain('Sentence 0');
  });
});

describe('cleanMarkdownForHash', () => {
  it('ignores whitespace and formatting-only differences', () => {
    const a =
      '# Title\n\nSome   *emphasised* text\nwrapped here.\n\n\n* item one\n* item two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n';
    const b =
      'Title\n=====\n\nSome emphasised text wrapped here.\n\n- item one\n+ item two\n\n|a|b|\n| :-- | --: |\n|1|2|';
    expect(cleanMarkdownForHash(a.replace('# Title', 'Title'))).toBe(
      cleanMarkdownForHash(b.replace('Title\n=====', 'Title')),
    );
    expect(cleanMarkdownForHash('**bold**  text\r\n')).toBe(cleanMarkdownForHash('__bold__ text'));
    expect(cleanMarkdownForHash('1. a\n2. b')).toBe(cleanMarkdownForHash('1. a\n1. b'));
  });

  it('still changes when words or links change', () => {
    expect(cleanMarkdownForHash('price: 10')).not.toBe(cleanMarkdownForHash('price: 12'));
    expect(cleanMarkdownForHash('[x](https://a.com)')).not.toBe(cleanMarkdownForHash('[x](https://b.com)'));
  });
});
