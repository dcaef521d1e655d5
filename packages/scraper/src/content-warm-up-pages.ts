/**
 * Pages for the content threads' warm-up (content-warm-up.ts): built here, deterministic, shaped
 * like what a scraper meets rather than like a clean example. A real page is ~170 KB, more than
 * half of it inline scripts and styles, with hundreds of `div`s, a menu of a hundred links, dozens
 * of `meta` and `link` tags, SVG icons, comments, entities and framework class names; the pipeline
 * has a path for each of these (raw-text tokenizer states, the JavaScript and wall checks, the
 * boilerplate rules, the page-type classifier), and a page that lacks them leaves that code cold.
 * Converting one clean article any number of times made the first real pages no cheaper; these
 * kinds (article, docs, product, forum thread, listing, in several languages and class styles) do.
 */

/** A deterministic pseudo-random sequence (mulberry32), so every thread warms on the same pages. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LANGS = {
  en: 'the harbour committee met on tuesday evening and agreed a new ferry timetable for residents of the islands while teachers asked about school transport and the council budget'.split(
    ' ',
  ),
  de: 'der Ausschuss für den Hafen hat am Dienstag einen neuen Fahrplan für die Fähre beschlossen und die Bürger über Kosten Schulen und Brücken informiert'.split(
    ' ',
  ),
  fr: 'le comité du port a adopté mardi soir un nouvel horaire pour le traversier et les élèves les enseignants et les habitants ont posé des questions sur le budget'.split(
    ' ',
  ),
  ja: '港湾 委員会 は 火曜日 の 夜 に 新しい フェリー の 時刻表 を 決め 住民 と 教師 が 予算 と 学校 の 交通 に ついて 質問 した'.split(
    ' ',
  ),
} as const;
type Lang = keyof typeof LANGS;

/** Class names in one of the styles sites use: plain, BEM, utility classes, hashed CSS modules. */
function classer(style: number, rnd: () => number): (role: string) => string {
  const hash = () => Math.floor(rnd() * 0xffffff).toString(36);
  switch (style % 4) {
    case 0:
      return (role) => role;
    case 1:
      return (role) => `site-${role} site-${role}--default`;
    case 2:
      return (role) => `${role} flex items-center gap-2 px-4 py-2 text-sm md:text-base lg:px-8`;
    default:
      return (role) => `${role.charAt(0).toUpperCase()}${role.slice(1)}_root__${hash()} css-${hash()}`;
  }
}

interface Kit {
  rnd: () => number;
  words: readonly string[];
  cls: (role: string) => string;
  lang: Lang;
}

const pick = <T>(k: Kit, xs: readonly T[]): T => xs[Math.floor(k.rnd() * xs.length)] as T;

function sentence(k: Kit, n = 10 + Math.floor(k.rnd() * 14)): string {
  const sep = k.lang === 'ja' ? '' : ' ';
  const out = Array.from({ length: n }, () => pick(k, k.words)).join(sep);
  return `${out.charAt(0).toUpperCase()}${out.slice(1)}${k.lang === 'ja' ? '。' : '.'}`;
}

/**
 * Each paragraph ends with an entity, inline markup or typographic punctuation. Pages keep a
 * character past Latin-1 (’ “ ” —), as nearly every real page has: V8 then holds the page as a
 * two-byte string, and compiles each regex apart for one-byte and two-byte subjects.
 */
const paragraph = (k: Kit) =>
  Array.from({ length: 2 + Math.floor(k.rnd() * 4) }, () => sentence(k)).join(' ') +
  pick(k, [
    ' &amp; more',
    '&nbsp;— see&#8217;s',
    ' “quoted”',
    ' <em>emphasis</em>',
    ' <a href="/x">link</a>',
  ]);

/** The head: metadata tags, preloads, JSON-LD, inline styles and scripts, as frameworks emit them. */
function head(k: Kit, title: string, kind: string, scale: number): string {
  const metas = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta name="description" content="${sentence(k)}">`,
    '<meta name="robots" content="index, follow, max-image-preview:large">',
    `<meta property="og:title" content="${title}">`,
    `<meta property="og:type" content="${kind === 'product' ? 'product' : 'article'}">`,
    '<meta property="og:image" content="https://cdn.example/img/lead.jpg">',
    '<meta name="twitter:card" content="summary_large_image">',
    '<meta property="article:published_time" content="2024-05-02T10:00:00Z">',
    '<meta name="author" content="A. Writer">',
    ...Array.from({ length: 18 }, (_, i) => `<meta name="x-meta-${i}" content="${i}">`),
  ];
  const links = [
    '<link rel="canonical" href="https://site.example/page">',
    '<link rel="icon" href="/favicon.ico">',
    '<link rel="alternate" hreflang="de" href="https://site.example/de/page">',
    ...Array.from(
      { length: 16 },
      (_, i) => `<link rel="preload" as="script" href="/_next/static/chunks/${i}.js">`,
    ),
  ];
  const ld =
    kind === 'product'
      ? '{"@context":"https://schema.org","@type":"Product","name":"Harbour Lamp","sku":"HL-1","offers":{"@type":"Offer","price":"49.90","priceCurrency":"EUR","availability":"https://schema.org/InStock"},"aggregateRating":{"@type":"AggregateRating","ratingValue":"4.5","reviewCount":"31"}}'
      : '{"@context":"https://schema.org","@type":"NewsArticle","headline":"Harbour","author":[{"@type":"Person","name":"A. Writer"}],"datePublished":"2024-05-02","publisher":{"@type":"Organization","name":"Example"}}';
  const css = Array.from(
    { length: Math.round(500 * scale) },
    (_, i) =>
      `.${k.cls('c').split(' ')[0]}-${i}{margin:${i % 7}px ${i % 5}em;color:#${(i * 2654435761).toString(16).slice(-6)};display:${i % 3 ? 'flex' : 'grid'}}@media (min-width:${600 + i}px){.m-${i}{padding:0 ${i % 9}px}}`,
  ).join('');
  const state = JSON.stringify({
    props: {
      pageProps: {
        items: Array.from({ length: Math.round(120 * scale) }, (_, i) => ({
          id: i,
          title: sentence(k, 6),
          url: `/p/${i}`,
        })),
      },
    },
    page: '/[slug]',
    buildId: 'b1',
  });
  const js = Array.from(
    { length: Math.round(250 * scale) },
    (_, i) =>
      `function f${i}(a,b){var c=a+"${i}";if(b&&b.length>${i % 13})return c.split("").reverse().join("");return window.__q${i % 5}=(window.__q${i % 5}||[]).concat([c,b])}`,
  ).join(';');
  return (
    `<head>${metas.join('')}<title>${title}</title>${links.join('')}` +
    `<script type="application/ld+json">${ld}</script><style>${css}</style>` +
    `<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}gtag("js",new Date());</script>` +
    `<script id="__NEXT_DATA__" type="application/json">${state}</script><script>${js}</script>` +
    '<script async src="https://www.googletagmanager.com/gtag/js?id=G-1"></script></head>'
  );
}

const ICON =
  '<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"><path d="M3 12h18M12 3v18" stroke="currentColor" stroke-width="2" fill="none"/><circle cx="12" cy="12" r="4"/></svg>';

/** Header with a two-level menu, search, cookie banner: the boilerplate around any page. */
function header(k: Kit): string {
  const menu = Array.from(
    { length: 10 },
    (_, i) =>
      `<li class="${k.cls('menu-item')}" data-id="${i}"><a href="/section/${i}" data-track="nav">${pick(k, k.words)}</a><ul class="${k.cls('submenu')}">${Array.from(
        { length: 9 },
        (_, j) => `<li><a href="/section/${i}/${j}">${pick(k, k.words)} ${j}</a></li>`,
      ).join('')}</ul></li>`,
  ).join('');
  return (
    `<!-- header start --><div id="cookie-banner" class="${k.cls('cookie')}" role="dialog"><p>We use cookies to improve your experience.</p><button>Accept all</button><button>Settings</button></div>` +
    `<header class="${k.cls('header')}"><a href="/" class="${k.cls('logo')}">${ICON}<span>Example</span></a>` +
    `<nav aria-label="Main" class="${k.cls('nav')}"><ul>${menu}</ul></nav>` +
    `<form role="search" action="/search"><input type="search" name="q" placeholder="Search"><button type="submit">${ICON}</button></form></header>`
  );
}

function footer(k: Kit): string {
  const cols = Array.from(
    { length: 4 },
    (_, i) =>
      `<div class="${k.cls('footer-col')}"><h4>${pick(k, k.words)}</h4><ul>${Array.from({ length: 8 }, (_, j) => `<li><a href="/f/${i}/${j}">${pick(k, k.words)}</a></li>`).join('')}</ul></div>`,
  ).join('');
  return (
    `<footer class="${k.cls('footer')}">${cols}<form class="${k.cls('newsletter')}"><label for="em">Newsletter</label><input id="em" type="email" name="email" required><input type="checkbox" name="ok"><button>Subscribe</button></form>` +
    `<p>© 2024 Example’s editors. All rights reserved. <a href="/privacy">Privacy</a> &middot; <a href="/terms">Terms</a></p></footer>` +
    '<noscript><img src="/pixel.gif" alt=""></noscript><!-- footer end -->'
  );
}

const deep = (k: Kit, depth: number, inner: string) =>
  Array.from({ length: depth }, (_, i) => `<div class="${k.cls(`wrap-${i}`)}">`).join('') +
  inner +
  '</div>'.repeat(depth);

function articleBody(k: Kit): string {
  const out: string[] = [
    `<h1>${sentence(k, 8)}</h1>`,
    `<p class="${k.cls('byline')}">By A. Writer &middot; 2 May 2024</p>`,
  ];
  for (let i = 0; i < 24; i++) {
    if (i % 6 === 0) out.push(`<h2 id="s${i}">${sentence(k, 5)}</h2>`);
    out.push(`<p>${paragraph(k)}</p>`);
    if (i === 4)
      out.push(
        `<figure><picture><source type="image/webp" srcset="/img/a.webp 1x, /img/a@2x.webp 2x"><img src="/img/a.jpg" alt="${sentence(k, 4)}" loading="lazy" width="800" height="450"></picture><figcaption>${sentence(k, 6)}</figcaption></figure>`,
      );
    if (i === 9) out.push(`<blockquote><p>${sentence(k)}</p><cite>Someone</cite></blockquote>`);
    if (i === 12)
      out.push(`<ul>${Array.from({ length: 5 }, () => `<li>${sentence(k, 7)}</li>`).join('')}</ul>`);
    if (i === 15)
      out.push(
        '<iframe src="https://www.youtube.com/embed/x1" width="560" height="315" allowfullscreen></iframe>',
      );
    if (i === 18)
      out.push(
        `<aside class="${k.cls('related-inline')}"><a href="/r/1">Read also: ${sentence(k, 6)}</a></aside>`,
      );
    if (i === 20) out.push(`<div class="${k.cls('ad')}" data-ad-slot="1"><script>/* ad */</script></div>`);
  }
  return out.join('');
}

function docsBody(k: Kit): string {
  const side = `<aside class="${k.cls('sidebar')}"><ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="/docs/${i}">${sentence(k, 3)}</a></li>`).join('')}</ul></aside>`;
  const rows = Array.from(
    { length: 8 },
    (_, i) =>
      `<tr><td><code>option${i}</code></td><td>${i % 2 ? 'string' : 'number'}</td><td>${sentence(k, 8)}</td></tr>`,
  ).join('');
  return (
    side +
    `<article><h1>${sentence(k, 4)}</h1><p>${paragraph(k)}</p><h2>Install</h2><pre><code class="language-bash">npm install example --save\n</code></pre>` +
    `<p>${paragraph(k)}</p><pre><code class="language-ts">import { run } from 'example';\nconst out = await run({ retries: 3 });\nif (out.ok) console.log(out.value);\n</code></pre>` +
    `<table><thead><tr><th>Name</th><th>Type</th><th>Description</th></tr></thead><tbody>${rows}</tbody></table>` +
    `<div class="admonition note"><p class="admonition-title">Note</p><p>${sentence(k)}</p></div><ol>${Array.from({ length: 4 }, () => `<li>${sentence(k, 6)}</li>`).join('')}</ol>` +
    `<p>${paragraph(k)}</p><nav class="${k.cls('pager')}"><a href="/docs/prev">Previous</a><a href="/docs/next">Next</a></nav></article>`
  );
}

function productBody(k: Kit): string {
  const thumbs = Array.from(
    { length: 6 },
    (_, i) => `<button data-idx="${i}"><img src="/p/t${i}.jpg" alt=""></button>`,
  ).join('');
  const reviews = Array.from(
    { length: 6 },
    (_, i) =>
      `<div class="${k.cls('review')}" itemprop="review"><span>${'&#9733;'.repeat(1 + (i % 5))}</span><p>${sentence(k)}</p></div>`,
  ).join('');
  const cards = Array.from(
    { length: 12 },
    (_, i) =>
      `<div class="${k.cls('card')}"><a href="/p/${i}"><img src="/p/${i}.jpg" alt=""><h3>${sentence(k, 3)}</h3><span class="price">&euro;${(i * 7.3 + 9).toFixed(2)}</span></a></div>`,
  ).join('');
  return (
    `<nav class="breadcrumbs"><a href="/">Home</a> &rsaquo; <a href="/lamps">Lamps</a></nav><div class="${k.cls('gallery')}">${thumbs}</div>` +
    `<h1 itemprop="name">${sentence(k, 4)}</h1><div class="${k.cls('price')}"><span itemprop="price" content="49.90">&euro;49,90</span><s>&euro;59,90</s></div>` +
    `<select name="size"><option>S</option><option>M</option><option>L</option></select><button class="${k.cls('add-to-cart')}">Add to cart</button>` +
    `<details open><summary>Description</summary><p>${paragraph(k)}</p><p>${paragraph(k)}</p></details><details><summary>Shipping</summary><p>${sentence(k)}</p></details>` +
    `<section class="${k.cls('reviews')}"><h2>Reviews</h2>${reviews}</section><section><h2>You may also like</h2>${cards}</section>`
  );
}

function threadBody(k: Kit): string {
  const posts = Array.from(
    { length: 20 },
    (_, i) =>
      `<article class="${k.cls('post')}" id="post-${i}"><div class="${k.cls('author')}"><img src="/u/${i}.png" alt=""><a href="/u/${i}">user${i}</a><span>Posts: ${i * 13}</span></div><div class="${k.cls('post-body')}">${i % 4 === 1 ? `<blockquote>user${i - 1} wrote: ${sentence(k, 8)}</blockquote>` : ''}<p>${paragraph(k)}</p></div><div class="${k.cls('actions')}"><button>Reply</button><button>Like ${i}</button></div></article>`,
  ).join('');
  return `<h1>${sentence(k, 6)}</h1><div class="${k.cls('thread')}">${posts}</div><nav class="pagination"><a href="?page=1">1</a><a href="?page=2">2</a><a href="?page=3">Next</a></nav>`;
}

function listingBody(k: Kit): string {
  return `<h1>${sentence(k, 3)}</h1><div class="${k.cls('grid')}">${Array.from(
    { length: 30 },
    (_, i) =>
      `<div class="${k.cls('teaser')}"><a href="/story/${i}"><img src="/t/${i}.jpg" alt=""><h3>${sentence(k, 7)}</h3></a><p>${sentence(k, 12)}</p><time datetime="2024-05-0${1 + (i % 9)}">${1 + (i % 9)} May</time></div>`,
  ).join('')}</div>`;
}

const KINDS = [
  ['article', articleBody],
  ['docs', docsBody],
  ['product', productBody],
  ['thread', threadBody],
  ['listing', listingBody],
] as const;

/**
 * Inline code and styles per page, as a share of a large page's: small pages matter too, since
 * the wall checks read only answers below 64 KB whole.
 */
const SCALES = [1, 0.25, 0.04];

/** Warm-up page `n`: its kind, language, class style and size (~15–120 KB) vary with `n`. */
export function warmUpPage(n: number): string {
  const rnd = random(n * 7919 + 1);
  const langs = Object.keys(LANGS) as Lang[];
  const lang = langs[n % langs.length] as Lang;
  const k: Kit = { rnd, words: LANGS[lang], cls: classer(n, rnd), lang };
  const [kind, body] = KINDS[n % KINDS.length] as (typeof KINDS)[number];
  const main = deep(k, 3 + (n % 6), `<main id="main" class="${k.cls('main')}">${body(k)}</main>`);
  return `<!DOCTYPE html><html lang="${lang}" class="no-js">${head(k, sentence(k, 6), kind, SCALES[n % SCALES.length] as number)}<body class="${k.cls(`page-${kind}`)}">${header(k)}${main}${footer(k)}<script src="/app.js" defer></script></body></html>`;
}

/** How many distinct pages `warmUpPage` makes before repeating its kinds, languages and styles. */
export const WARM_UP_PAGE_KINDS = KINDS.length * 4;
