/** Page metadata from <title>, meta tags, <link rel=canonical>, <html lang> and JSON-LD. */
import type { ChildNode, Document, Element } from 'domhandler';
import { decodeHTML } from 'entities';
import { collapse, isElement, rawText, textOf } from '../dom/dom.util';
import type { UrlResolver } from '../dom/url.util';
import type { ContentMetadata } from '../types';
import { type DeclaredProduct, declaredProduct } from './declared-product.fallback';
import type { DeclaredType, PageType } from './page-type.classifier';

interface Collected {
  title: string | null;
  lang: string | null;
  canonical: string | null;
  meta: Map<string, string>;
  jsonLd: string[];
  firstH1: string | null;
  headings: Element[];
  /** schema.org Product microdata seen on an element. */
  productItem: boolean;
  /** schema.org types of microdata items (`itemtype`), at most a few dozen. */
  itemTypes: string[];
}

/** What the page declares itself to be, for extraction rules that depend on the kind of page. */
export interface PageHints {
  /** A shop's product page (JSON-LD / microdata Product, og:type product). */
  product: boolean;
  /** What the page says its title is (og:title, twitter:title, <title>, JSON-LD headline). */
  titles?: string[];
  /** The site's own name (og:site_name, application-name): never the page's title. */
  siteName?: string | null;
  /** <h1>/<h2> elements of the parsed page in document order (collected on the same walk). */
  headings?: Element[];
  /** What the page declares it is: schema.org types (JSON-LD, microdata) and og:type. */
  declared?: DeclaredType;
  /** The page type (page-type.classifier.ts), set before extraction: it picks the profile. */
  pageType?: PageType;
  /** The page offers to buy (an add-to-cart or buy-now button), read with the page type. */
  sells?: boolean;
  /** A declared product's description (JSON-LD), as text: added when the extraction dropped it. */
  productDescription?: string;
  /** The declared product (JSON-LD): the content of a page whose markup shows none. */
  declaredProduct?: DeclaredProduct;
}

/** "https://schema.org/NewsArticle" → "NewsArticle" (each of a space-separated list). */
function schemaNames(v: string): string[] {
  return v
    .split(/\s+/)
    .map((t) => t.replace(/^.*[/#:]/, ''))
    .filter((t) => t !== '');
}

const LD_PRODUCT =
  /"@type"\s*:\s*(?:\[[^\]]*?)?"(?:https?:\/\/schema\.org\/)?(?:Product|ProductGroup|IndividualProduct)"/;
const MICRODATA_PRODUCT = /schema\.org\/(?:Product|ProductGroup|IndividualProduct)\b/i;

/** One walk over the whole document (meta and JSON-LD often sit in <body>). */
function collect(doc: Document): Collected {
  const c: Collected = {
    title: null,
    lang: null,
    canonical: null,
    meta: new Map(),
    jsonLd: [],
    firstH1: null,
    headings: [],
    productItem: false,
    itemTypes: [],
  };
  const stack: ChildNode[] = [...doc.children].reverse();
  let inSvg = 0;
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    const a = n.attribs;
    if (a.itemtype !== undefined) {
      if (!c.productItem && MICRODATA_PRODUCT.test(a.itemtype)) c.productItem = true;
      if (c.itemTypes.length < 32) c.itemTypes.push(...schemaNames(a.itemtype));
    }
    switch (n.name) {
      case 'html':
        if (c.lang === null && a.lang) c.lang = a.lang.trim() || null;
        if (c.lang === null && a['xml:lang']) c.lang = a['xml:lang'].trim() || null;
        break;
      case 'title':
        if (c.title === null && inSvg === 0) c.title = textOf(n) || null;
        continue;
      case 'meta': {
        const key = (a.property || a.name || a.itemprop || '').trim().toLowerCase();
        const equiv = (a['http-equiv'] || '').trim().toLowerCase();
        const content = a.content?.trim();
        if (content) {
          if (key && !c.meta.has(key)) c.meta.set(key, content);
          if (equiv && !c.meta.has(`http-equiv:${equiv}`)) c.meta.set(`http-equiv:${equiv}`, content);
        }
        continue;
      }
      case 'link': {
        const rel = (a.rel || '').toLowerCase().split(/\s+/);
        if (c.canonical === null && rel.includes('canonical') && a.href) c.canonical = a.href;
        continue;
      }
      case 'script':
        if ((a.type || '').toLowerCase().includes('ld+json') && c.jsonLd.length < 8)
          c.jsonLd.push(rawText(n));
        continue;
      case 'style':
      case 'noscript':
      case 'template':
        continue;
      case 'h1':
        if (c.firstH1 === null) c.firstH1 = textOf(n) || null;
        c.headings.push(n);
        continue;
      case 'h2':
        c.headings.push(n);
        break;
      case 'svg':
        inSvg++;
        continue;
    }
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return c;
}

type Json = string | number | boolean | null | Json[] | { [k: string]: Json };

/** Flatten JSON-LD (arrays, @graph) into its objects. */
function ldObjects(sources: string[]): Array<Record<string, Json>> {
  const out: Array<Record<string, Json>> = [];
  const visit = (v: Json, depth: number): void => {
    if (depth > 4 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (const x of v) visit(x, depth + 1);
      return;
    }
    out.push(v);
    const graph = v['@graph'];
    if (graph) visit(graph, depth + 1);
  };
  for (const s of sources) {
    try {
      visit(JSON.parse(s) as Json, 0);
    } catch {
      // invalid JSON-LD is common in the wild; metadata is best effort
    }
  }
  return out;
}

const PRODUCT_TYPE = /^(?:Product|ProductGroup|IndividualProduct)$/;
/** Shops often put markup inside JSON-LD strings: tags out, entities decoded. */
const TAG = /<[^>]*>/g;
const MAX_DESCRIPTION = 20_000;

/** The description of the first declared product, as plain text (bounded). */
function productDescription(ld: Array<Record<string, Json>>): string | null {
  for (const o of ld) {
    const t = o['@type'];
    const types = (Array.isArray(t) ? t : [t]).filter((x): x is string => typeof x === 'string');
    if (!types.some((x) => schemaNames(x).some((n) => PRODUCT_TYPE.test(n)))) continue;
    const d = o.description;
    if (typeof d !== 'string') continue;
    const text = collapse(decodeHTML(d.slice(0, MAX_DESCRIPTION).replace(TAG, ' ')));
    if (text) return text;
  }
  return null;
}

function nameOf(v: Json | undefined): string | null {
  if (typeof v === 'string') return v.trim() || null;
  if (Array.isArray(v)) {
    const names = v.map((x) => nameOf(x)).filter((x): x is string => !!x);
    return names.length ? names.join(', ') : null;
  }
  if (v && typeof v === 'object' && typeof v.name === 'string') return v.name.trim() || null;
  return null;
}

export interface MetadataInput {
  doc: Document;
  resolver: UrlResolver;
  url: string;
  sourceUrl?: string;
  statusCode?: number;
  /** Filled in with what the page declares about itself (saves a second walk). */
  hints?: PageHints;
}

export function extractMetadata({
  doc,
  resolver,
  url,
  sourceUrl,
  statusCode,
  hints,
}: MetadataInput): ContentMetadata {
  const c = collect(doc);
  const m = c.meta;
  if (hints) {
    const og = m.get('og:type')?.toLowerCase();
    hints.product =
      c.productItem || og === 'product' || og === 'og:product' || c.jsonLd.some((j) => LD_PRODUCT.test(j));
  }
  const ld = ldObjects(c.jsonLd);
  const ldField = (k: string): Json | undefined => ld.find((o) => o[k] !== undefined)?.[k];
  if (hints) {
    const headline = ldField('headline');
    hints.titles = [
      m.get('og:title'),
      m.get('twitter:title'),
      c.title,
      typeof headline === 'string' ? headline : null,
    ]
      .filter((t): t is string => !!t && t.trim() !== '')
      .map(collapse);
    hints.siteName = m.get('og:site_name') ?? m.get('application-name') ?? null;
    hints.headings = c.headings;
    const types = new Set(c.itemTypes);
    for (const o of ld) {
      const t = o['@type'];
      for (const x of Array.isArray(t) ? t : [t])
        if (typeof x === 'string') for (const n of schemaNames(x)) types.add(n);
    }
    hints.declared = { schemaTypes: [...types], ogType: m.get('og:type')?.toLowerCase() ?? null };
    const description = productDescription(ld);
    if (description) hints.productDescription = description;
    const product = declaredProduct(ld);
    if (product) hints.declaredProduct = product;
  }
  const pick = (...keys: string[]): string | null => {
    for (const k of keys) {
      const v = m.get(k);
      if (v) return collapse(v);
    }
    return null;
  };
  const lang = c.lang ?? pick('http-equiv:content-language', 'content-language', 'language', 'og:locale');
  const published = pick(
    'article:published_time',
    'og:published_time',
    'date',
    'pubdate',
    'dc.date',
    'datepublished',
  );
  const ldDate = ldField('datePublished');
  const md: ContentMetadata = {
    title: c.title ?? pick('og:title', 'twitter:title') ?? c.firstH1,
    description: pick('description', 'og:description', 'twitter:description'),
    language: lang ? (lang.split(',')[0]?.trim().replace(/_/g, '-') ?? null) : null,
    canonicalUrl: resolver.resolve(c.canonical),
    sourceURL: sourceUrl ?? url,
    finalUrl: url,
    ogImage: resolver.resolve(pick('og:image', 'og:image:url', 'twitter:image')),
    author: pick('author', 'article:author', 'dc.creator', 'parsely-author') ?? nameOf(ldField('author')),
    publishedTime: published ?? (typeof ldDate === 'string' ? ldDate : null),
  };
  if (statusCode !== undefined) md.statusCode = statusCode;
  return md;
}

/** Text fields of a JSON-LD object and its comments/answers (forum threads, Q&A). */
function ldText(o: Record<string, Json>, out: string[], depth: number): void {
  for (const k of ['articleBody', 'text']) {
    const v = o[k];
    if (typeof v === 'string' && v.trim()) out.push(v.trim());
  }
  if (depth > 2) return;
  for (const k of ['comment', 'suggestedAnswer', 'acceptedAnswer', 'mainEntity']) {
    const v = o[k];
    for (const x of Array.isArray(v) ? v : [v])
      if (x && typeof x === 'object' && !Array.isArray(x)) ldText(x, out, depth + 1);
  }
}

/**
 * Text for pages whose markup carries none (client-rendered apps): the body text a page
 * declares in JSON-LD (articleBody, text, forum comments and answers). Descriptions are not
 * used: a teaser is not the content, and an empty page should read as empty.
 */
export function fallbackText(doc: Document): string {
  const c = collect(doc);
  let best: string[] = [];
  let bestLen = 0;
  for (const o of ldObjects(c.jsonLd)) {
    const parts: string[] = [];
    ldText(o, parts, 0);
    const len = parts.reduce((n, p) => n + p.length, 0);
    if (len > bestLen) {
      best = parts;
      bestLen = len;
    }
  }
  return best.join('\n\n');
}
