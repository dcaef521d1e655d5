import { processHtml } from '../document.processor';
import { findFirst, parseHtml } from '../dom/dom.util';
import { classifyPage, type DeclaredType, measurePage, type PageType } from './page-type.classifier';

const NONE: DeclaredType = { schemaTypes: [], ogType: null };
const words = (n: number, w = 'word'): string =>
  Array.from({ length: n }, (_, i) => `${w}${i % 7}`).join(' ');
const para = (n = 60): string => `<p>${words(n)} and a sentence, with commas, that reads like prose.</p>`;

function classify(body: string, url = 'https://site.test/page', declared = NONE): PageType {
  const doc = parseHtml(`<html><body>${body}</body></html>`);
  const el = findFirst(doc, 'body');
  if (!el) throw new Error('no body');
  return classifyPage(el, url, declared).type;
}

describe('page-type classifier', () => {
  it('long prose under a dated, slugged URL is an article', () => {
    const body = `<nav><a href="/">Home</a><a href="/about">About</a></nav><article><h1>Title</h1>${para()}${para()}${para()}${para()}${para()}${para()}</article>`;
    expect(classify(body, 'https://news.test/2024/05/how-the-river-changed-its-course')).toBe('article');
  });

  it('declared structured data decides when the page shape is neutral', () => {
    const body = `<div>${para(30)}</div>`;
    expect(classify(body, 'https://x.test/a', { schemaTypes: ['Product'], ogType: null })).toBe('product');
    expect(
      classify(body, 'https://x.test/a', { schemaTypes: ['DiscussionForumPosting'], ogType: null }),
    ).toBe('forum');
    expect(classify(body, 'https://x.test/a', { schemaTypes: ['TechArticle'], ogType: null })).toBe(
      'documentation',
    );
    expect(classify(body, 'https://x.test/a', { schemaTypes: [], ogType: 'product' })).toBe('product');
  });

  it('a thread of post-classed blocks with dates is a forum; post teasers that are mostly links are a listing', () => {
    const post = (i: number) =>
      `<div class="post" id="p${i}"><span class="author">user${i}</span><time>2024-01-0${i % 9}</time><div class="body">${words(40)} I think this answers it.</div></div>`;
    const thread = `<h1>How do I fix the boiler?</h1>${Array.from({ length: 8 }, (_, i) => post(i)).join('')}`;
    expect(classify(thread)).toBe('forum');
    const teaser = (i: number) =>
      `<div class="post"><h2><a href="/blog/${i}">${words(12, 'headline')}</a></h2><a href="/blog/${i}">${words(14, 'teaser')}</a></div>`;
    const blog = Array.from({ length: 10 }, (_, i) => teaser(i)).join('');
    expect(classify(blog, 'https://site.test/blog/')).toBe('listing');
  });

  it('one price with an add-to-cart button is a product; a grid of priced cards is a collection', () => {
    const product = `<h1>Walnut desk</h1><div class="price">$249.00</div><button>Add to cart</button>${para(40)}<ul><li>Width: 120 cm</li><li>Oak legs</li></ul>`;
    expect(classify(product)).toBe('product');
    const card = (i: number) =>
      `<div class="card"><a href="/p/desk-${i}">Desk model ${i} in walnut</a><span>$${100 + i}.00</span></div>`;
    const grid = `<aside class="filters"><label><input type="checkbox"> Oak</label></aside><div class="grid">${Array.from({ length: 12 }, (_, i) => card(i)).join('')}</div>`;
    expect(classify(grid, 'https://shop.test/category/desks')).toBe('collection');
  });

  it('counts a cart button whose label the markup breaks across lines', () => {
    const label = (l: string) => `<h1>Walnut desk</h1><button>${l}</button>${para(40)}`;
    const sells = (l: string) =>
      measurePage(findFirst(parseHtml(`<html><body>${label(l)}</body></html>`), 'body')!).cartButtons;
    expect(sells('Add to basket')).toBe(1);
    expect(sells('Add to\n      basket')).toBe(1);
    expect(sells('Add\tto cart')).toBe(1);
  });

  it('a product path with a price and little prose is a product, even without a cart button or with og:type article', () => {
    const product = `<h1>Brass desk lamp</h1><div class="price">$89.00</div>${para(40)}<ul><li>Height: 45 cm</li><li>Bulb: E27</li></ul>`;
    const url = 'https://shop.test/product/brass-desk-lamp-with-dimmer';
    expect(classify(product, url, { schemaTypes: [], ogType: 'article' })).toBe('product');
    // the same words without a price stay an article
    const story = `<h1>Brass desk lamp</h1>${para(40)}<ul><li>Height: 45 cm</li><li>Bulb: E27</li></ul>`;
    expect(classify(story, url, { schemaTypes: [], ogType: 'article' })).toBe('article');
  });

  it('a list of linked cards holding the text is a listing', () => {
    const item = (i: number) =>
      `<li class="result"><a href="/r/${i}">${words(8, 'result')}</a><p>${words(20, 'snippet')}</p></li>`;
    const body = `<h1>Results</h1><ul>${Array.from({ length: 12 }, (_, i) => item(i)).join('')}</ul>`;
    expect(classify(body, 'https://site.test/search?q=x')).toBe('listing');
  });

  it('code blocks, or a docs host or path, make documentation', () => {
    const body = `<h1>Install</h1>${para(30)}<pre><code>npm install thing</code></pre>${para(20)}<pre><code>thing --init\nthing run</code></pre>`;
    expect(classify(body)).toBe('documentation');
    expect(classify(`<h1>Middleware</h1>${para(50)}`, 'https://docs.example.test/en/ref/middleware/')).toBe(
      'documentation',
    );
  });

  it('many short sections with headings and a contact form, or a site front page, is a service page', () => {
    const section = (i: number) => `<h2>What we do ${i}</h2><div>${words(25, 'benefit')}</div>`;
    const body = `${Array.from({ length: 8 }, (_, i) => section(i)).join('')}<form><input type="text" name="email"><textarea></textarea><button>Get a quote</button></form>`;
    expect(classify(body, 'https://agency.test/services/seo')).toBe('service');
    expect(classify(`<h1>Ship faster</h1><div>${words(40)}</div>`, 'https://product.test/')).toBe('service');
  });

  it('measures link text, prose, prices and the largest repeated group', () => {
    const doc = parseHtml(
      `<body><p>${words(10)}</p><ul>${Array.from({ length: 5 }, (_, i) => `<li class="${i % 2 ? 'card' : 'card featured'}"><a href="/${i}">link number ${i} text</a> €${i},99</li>`).join('')}</ul></body>`,
    );
    const body = findFirst(doc, 'body');
    if (!body) throw new Error('no body');
    const s = measurePage(body);
    expect(s.repeatCount).toBe(5); // siblings group by tag: their classes may differ
    expect(s.prices).toBe(5);
    // Sizes count non-whitespace characters: "word0 … word6" ×10 = 50.
    expect(s.paragraphText).toBe(50);
    expect(s.proseBlock).toBe(50);
    expect(s.linkText).toBe(5 * 'linknumber0text'.length);
  });

  it('sizes and groups do not change with markup-only rewrites (whitespace, wrappers, classes)', () => {
    const card = (i: number, cls: string, inner: string) =>
      `<li class="${cls}"><a href="/${i}">${inner}</a> ${words(12)}</li>`;
    const plain = `<body><ul>${Array.from({ length: 6 }, (_, i) => card(i, 'card', `story number ${i}`)).join('')}</ul></body>`;
    const rewritten = `<body>\n  <ul>\n${Array.from({ length: 6 }, (_, i) => `    ${card(i, i % 2 ? 'card qz7' : 'xk2 card', `story\n      <b>number</b>   ${i}`)}\n`).join('')}  </ul>\n</body>`;
    const measure = (html: string) => {
      const body = findFirst(parseHtml(html), 'body');
      if (!body) throw new Error('no body');
      return measurePage(body);
    };
    expect(measure(rewritten)).toEqual(measure(plain));
  });

  it('a grid of teasers beside one longer prose body is not a listing', () => {
    const teaser = (i: number) =>
      `<div class="card"><a href="/story/${i}">Another story number ${i}</a><p>${words(12)}</p></div>`;
    const grid = `<section>${Array.from({ length: 6 }, (_, i) => teaser(i)).join('')}</section>`;
    expect(classify(grid)).toBe('listing');
    expect(classify(`${grid}<article>${para(80)}${para(60)}</article>`)).toBe('article');
  });

  it('is reported as metadata.pageType, read before the cleaners change the page', () => {
    const html = `<html><head><script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Desk"}</script></head><body><h1>Desk</h1>${para(40)}</body></html>`;
    expect(
      processHtml(html, { url: 'https://shop.test/desk', formats: ['markdown'] }).metadata.pageType,
    ).toBe('product');
    const micro = `<html><body><div itemscope itemtype="https://schema.org/QAPage">${para(40)}</div></body></html>`;
    expect(processHtml(micro, { url: 'https://x.test/q', formats: [] }).metadata.pageType).toBe('forum');
  });
});

describe('extraction profile per page type', () => {
  // A reference page: prose, then a list of links to its methods. Article mode drops a link list
  // inside the body as boilerplate; a documentation page keeps its whole main region.
  const method = (i: number) =>
    `<li><a href="/api/method${i}">method${i}()</a> <a href="/api/type${i}">Type${i}</a></li>`;
  const html = `<html><head><title>Client reference</title></head><body><nav><a href="/">Home</a> <a href="/contact">Contact</a></nav><div id="page"><div class="content"><h1>Client reference</h1>${para()}${para()}${para()}<h2>Methods</h2><ul>${[1, 2, 3, 4, 5, 6, 7, 8].map(method).join('')}</ul>${para()}</div></div><footer>© Example</footer></body></html>`;

  it('a documentation page keeps the link list of its main region', () => {
    const out = processHtml(html, {
      url: 'https://docs.example.test/reference/client',
      formats: ['markdown'],
    });
    expect(out.metadata.pageType).toBe('documentation');
    expect(out.markdown).toContain('[method3()]');
    expect(out.markdown).not.toContain('© Example');
  });

  it('the same markup read as an article keeps its prose without the link list', () => {
    const url = 'https://news.example.test/2024/05/what-the-client-reference-says';
    const out = processHtml(html, { url, formats: ['markdown'] });
    expect(out.metadata.pageType).toBe('article');
    expect(out.markdown).toContain('## Methods');
    expect(out.markdown).not.toContain('method3');
  });
  it('an article-shaped page of many short headed sections, no one of them a body of prose, is a service page', () => {
    const section = (i: number) => `<section><h2>Part ${i} of the offer</h2>${para(60)}</section>`;
    const body = `<h1>What we do</h1>${Array.from({ length: 14 }, (_, i) => section(i)).join('')}`;
    const doc = parseHtml(`<html><body>${body}</body></html>`);
    const el = findFirst(doc, 'body');
    if (!el) throw new Error('no body');
    // The scores alone still say article: the sections rule decides.
    const r = classifyPage(el, 'https://site.test/company/planning', NONE);
    expect(r.scores.article).toBeGreaterThan(r.scores.service);
    expect(r.type).toBe('service');
    // Not on a post's path, nor on a page that sells, nor on line-broken text without paragraphs.
    expect(classify(body, 'https://site.test/2024/05/company')).toBe('article');
    const prices = Array.from({ length: 6 }, (_, i) => `<span>$1${i}.00</span>`).join('');
    expect(classify(`${body}${prices}`)).toBe('article');
    const lines = `<h1>Notice</h1><div>${Array.from({ length: 14 }, () => `${words(60)}<br>`).join('')}</div>`;
    expect(classify(lines)).toBe('article');
    // One body of prose among the sections keeps the page an article.
    expect(classify(`${body}<article>${para(400)}${para(400)}</article>`)).toBe('article');
  });

  it('with fifteen headings or more, sections of up to an eighth of the text still read as a service page', () => {
    const section = (i: number, sub: boolean) =>
      `<section><h2>Part ${i}</h2>${sub ? `<h3>Detail ${i}</h3>` : ''}${para(60)}</section>`;
    const page = (sub: boolean) =>
      `<h1>What we do</h1>${Array.from({ length: 10 }, (_, i) => section(i, sub)).join('')}`;
    // Ten sections of a tenth of the text each: an article with ten headings, a service with twenty.
    expect(classify(page(false), 'https://site.test/company/planning')).toBe('article');
    expect(classify(page(true), 'https://site.test/company/planning')).toBe('service');
  });
});
