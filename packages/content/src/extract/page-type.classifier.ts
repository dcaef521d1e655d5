/**
 * What kind of page this is — article, forum, product, collection, listing, documentation or
 * service — from signals any page carries: the structured-data types it declares, its URL path,
 * the shape of its body (repeated sibling blocks and how much of the text they hold, code blocks,
 * posts with authors and dates, prices, forms) and its link density. Pure, one walk of the body.
 * Reported as `metadata.pageType`; extraction profiles per type build on it.
 */
import type { ChildNode, Element } from 'domhandler';
import { isElement, isText, rawText } from '../dom/dom.util';

export const PAGE_TYPES = [
  'article',
  'forum',
  'product',
  'collection',
  'listing',
  'documentation',
  'service',
] as const;
export type PageType = (typeof PAGE_TYPES)[number];

/** What the page declares about itself (read on the metadata walk). */
export interface DeclaredType {
  /** schema.org types of its JSON-LD objects and microdata items ("Product", "NewsArticle"). */
  schemaTypes: string[];
  /** og:type, lower case. */
  ogType: string | null;
}

/** Measured on one walk of the body; exported for the tests and the benchmark's report. */
export interface PageSignals {
  /** Characters of visible text, whitespace not counted (so re-indenting changes nothing). */
  text: number;
  /** Characters of visible text inside links. */
  linkText: number;
  /** Text in <p> elements. */
  paragraphText: number;
  /** <pre> blocks and their characters. */
  preBlocks: number;
  preText: number;
  /** Text nodes that read as a price ("$19.99", "19,99 €"). */
  prices: number;
  /** Buttons or inputs that add to a cart / buy. */
  cartButtons: number;
  /** The most same-parent siblings whose class or id names a post, comment, reply or message. */
  postBlocks: number;
  /** Share of those posts' text that is link text (teasers of a listing are mostly links). */
  postLinkShare: number;
  /** <time> elements and date-like short texts. */
  times: number;
  /** The largest group of same-tag siblings each holding a link (cards, rows, results). */
  repeatCount: number;
  /** Share of the page's text inside that group. */
  repeatShare: number;
  /** The most <p> text that one element holds in its own <p> children (an article's body). */
  proseBlock: number;
  /** <h2>-<h3> headings. */
  headings: number;
  /** <form> elements with a text field or textarea (contact, quote, booking). */
  forms: number;
}

const PRICE =
  /(?:[$€£¥₹]\s?\d{1,3}(?:[.,\s]\d{3})*(?:[.,]\d{2})?|\b\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}\s?(?:[$€£¥₹]|USD|EUR|GBP|kr|zł)(?!\w))/;
const DIGIT = /\d/;
/** A cart button's label; its words may be split by any whitespace (a line break in the markup). */
const CART =
  /\b(?:add\s+to\s+(?:cart|bag|basket|trolley)|buy\s+(?:it\s+)?now|in\s+den\s+warenkorb|ajouter\s+au\s+panier|añadir\s+al\s+carrito)\b/i;
const POST_CLASS =
  /(?:^|[\s_-])(?:post|comment|reply|message|answer|thread-?item|topic-?post)(?:$|[\s_-]|\d)/i;
const SKIP = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'head',
  'iframe',
  'select',
  'option',
]);

/**
 * Characters that are not whitespace: the measure of text that markup-only rewrites (re-indenting,
 * reflowed lines, words wrapped in inline elements) cannot change.
 */
function visibleChars(t: string): number {
  let n = 0;
  for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) > 32) n++;
  return n;
}

/** Its class or id names a post, comment, reply or message. */
function isPostBlock(el: Element): boolean {
  const { class: cls, id } = el.attribs;
  return (cls !== undefined && POST_CLASS.test(cls)) || (id !== undefined && POST_CLASS.test(id));
}

interface Walked {
  text: number;
  linkText: number;
  hasLink: boolean;
}

/** One walk of the body (depth is capped by the parser, so recursion is safe): the page's signals. */
export function measurePage(body: Element): PageSignals {
  const s: PageSignals = {
    text: 0,
    linkText: 0,
    paragraphText: 0,
    preBlocks: 0,
    preText: 0,
    prices: 0,
    cartButtons: 0,
    postBlocks: 0,
    postLinkShare: 0,
    times: 0,
    repeatCount: 0,
    repeatShare: 0,
    proseBlock: 0,
    headings: 0,
    forms: 0,
  };
  const candidates: Array<{ count: number; text: number }> = [];
  // Allocation-light: this walk runs on every page, so a group map and a post tally are only made
  // for elements that have such children.
  const visit = (el: Element, inLink: boolean, inPre: boolean, inP: boolean): Walked => {
    const w: Walked = { text: 0, linkText: 0, hasLink: el.name === 'a' && !!el.attribs.href };
    const link = inLink || w.hasLink;
    let groups: Map<string, { count: number; text: number }> | undefined;
    let posts: { count: number; text: number; linkText: number } | undefined;
    let prose = 0;
    for (const c of el.children as ChildNode[]) {
      if (isText(c)) {
        const n = visibleChars(c.data);
        if (n === 0) continue;
        w.text += n;
        if (link) w.linkText += n;
        if (inP) s.paragraphText += n;
        if (inPre) s.preText += n;
        if (n < 33 && DIGIT.test(c.data) && PRICE.test(c.data)) s.prices++;
        continue;
      }
      if (!isElement(c) || SKIP.has(c.name)) continue;
      const k = visit(c, link, inPre || c.name === 'pre', inP || c.name === 'p');
      w.text += k.text;
      w.linkText += k.linkText;
      w.hasLink ||= k.hasLink;
      if (c.name === 'p') prose += k.text - k.linkText;
      if (k.text >= 65 && isPostBlock(c)) {
        posts ??= { count: 0, text: 0, linkText: 0 };
        posts.count++;
        posts.text += k.text;
        posts.linkText += k.linkText;
      }
      if (k.hasLink && k.text >= 16) {
        groups ??= new Map();
        // Siblings group by tag alone: class tokens are what templates and CSS toolchains rename
        // or add to, and a page's type must not change with them.
        const key = c.name;
        const g = groups.get(key);
        if (g) {
          g.count++;
          g.text += k.text;
        } else groups.set(key, { count: 1, text: k.text });
      }
    }
    if (prose > s.proseBlock) s.proseBlock = prose;
    if (groups)
      for (const g of groups.values()) if (g.count >= 3 && candidates.length < 256) candidates.push(g);
    if (posts && posts.count >= 2 && posts.count > s.postBlocks) {
      s.postBlocks = posts.count;
      s.postLinkShare = posts.linkText / Math.max(1, posts.text);
    }
    switch (el.name) {
      case 'pre':
        s.preBlocks++;
        break;
      case 'time':
        s.times++;
        break;
      case 'h2':
      case 'h3':
        s.headings++;
        break;
      case 'form':
        if (w.text < 2500) s.forms++;
        break;
      case 'button':
      case 'a':
      case 'input': {
        const label = el.name === 'input' ? (el.attribs.value ?? '') : '';
        if (CART.test(label) || (w.text < 33 && w.text > 0 && CART.test(rawText(el)))) s.cartButtons++;
        break;
      }
    }
    return w;
  };
  const top = visit(body, false, false, false);
  s.text = top.text;
  s.linkText = top.linkText;
  // The list of the page: the most items among groups holding at least a tenth of the text (a
  // three-column wrapper holds much text but is not a list of cards).
  let best = { count: 0, text: 0 };
  for (const g of candidates)
    if (g.text >= top.text * 0.1 && (g.count > best.count || (g.count === best.count && g.text > best.text)))
      best = g;
  s.repeatCount = best.count;
  s.repeatShare = top.text > 0 ? best.text / top.text : 0;
  return s;
}

const SCHEMA_TYPE: Array<[RegExp, PageType]> = [
  [/^(?:Product|ProductGroup|IndividualProduct|Offer|AggregateOffer)$/, 'product'],
  [/^(?:DiscussionForumPosting|QAPage|Question|SocialMediaPosting)$/, 'forum'],
  [/^(?:TechArticle|APIReference|SoftwareSourceCode)$/, 'documentation'],
  [/^(?:CollectionPage|ItemList|OfferCatalog|SearchResultsPage)$/, 'collection'],
  [
    /^(?:Service|ProfessionalService|LocalBusiness|FinancialService|LegalService|MedicalBusiness|HomeAndConstructionBusiness)$/,
    'service',
  ],
  [/^(?:Article|NewsArticle|BlogPosting|Report|ScholarlyArticle|Recipe|Review|LiveBlogPosting)$/, 'article'],
];

const URL_TYPE: Array<[RegExp, PageType]> = [
  [
    /\/(?:forums?|threads?|topics?|discussions?|questions|community|boards?|t)\/|\/showthread|viewtopic|\/r\/[^/]+\/comments\//i,
    'forum',
  ],
  [
    /^(?:docs?|developers?|dev|learn|api|wiki|manual|devcenter)\.|\/(?:docs?|documentation|api|reference|manual|guides?|userguide|sdk|developers?|kb|handbook|book|tutorials?|getting-started|start|learn|wiki)(?:\/|$)|readthedocs|\.io\/en\//i,
    'documentation',
  ],
  [/\/(?:products?|p|dp|item|shop\/[^/]+\/[^/]+)\/[^/]+|\/gp\/product\//i, 'product'],
  [/\/(?:collections?|categor(?:y|ies)|shop|store|c|catalog|department)(?:\/|$)/i, 'collection'],
  [/\/(?:blog|news|articles|tags?|archive|page\/\d+|search|jobs|events|results?)\/?(?:$|\?)/i, 'listing'],
  [/\/(?:services?|solutions?|what-we-do|industries|pricing|features|consulting)(?:\/|$)/i, 'service'],
];

export interface PageTypeResult {
  type: PageType;
  /** Score per type; the type is the highest. */
  scores: Record<PageType, number>;
}

/** Classify a page. `url` is the page's final URL; `declared` comes from its metadata. */
export function classifyPage(body: Element, url: string, declared: DeclaredType): PageTypeResult {
  return scorePage(measurePage(body), url, declared);
}

/** The scoring on measured signals (separate so tests can state a page's signals directly). */
export function scorePage(s: PageSignals, url: string, declared: DeclaredType): PageTypeResult {
  // Sizes are in non-whitespace characters (about 5/6 of a text's length in English).
  const scores: Record<PageType, number> = {
    article: 1,
    forum: 0,
    product: 0,
    collection: 0,
    listing: 0,
    documentation: 0,
    service: 0,
  };
  for (const t of declared.schemaTypes)
    for (const [re, type] of SCHEMA_TYPE) if (re.test(t)) scores[type] += 2;
  if (declared.ogType === 'product' || declared.ogType === 'og:product') scores.product += 2;
  if (declared.ogType === 'article') scores.article += 1;
  let path = url;
  try {
    const u = new URL(url);
    path = `${u.hostname}${u.pathname}`;
  } catch {
    // keep the raw string
  }
  let productPath = false;
  for (const [re, type] of URL_TYPE)
    if (re.test(path)) {
      scores[type] += 1.5;
      if (type === 'product') productPath = true;
    }
  const text = Math.max(1, s.text);
  const linkDensity = s.linkText / text;
  const proseShare = s.paragraphText / text;
  // Code: documentation (or a technical article).
  if (s.preBlocks >= 2 || s.preText / text > 0.1) scores.documentation += 1.5;
  // Prices and cart buttons: one product, or many (a collection).
  if (s.cartButtons > 0 && s.cartButtons <= 2 && s.prices <= 6) scores.product += 2;
  if (s.prices >= 6 && s.repeatCount >= 6) scores.collection += 2;
  // A product's path with a few prices and no long prose sells something even when the cart
  // button is drawn by script (and a blog engine calls every page an og:type article).
  if (productPath && s.prices >= 1 && s.prices <= 6 && s.cartButtons === 0 && s.paragraphText < 1650)
    scores.product += 1.5;
  if ((s.prices >= 10 || s.cartButtons >= 3) && proseShare < 0.5) scores.collection += 1.5;
  // Posts: a thread; post-classed teasers that are mostly links: a listing of posts.
  if (s.postBlocks >= 3 && s.postLinkShare < 0.3) scores.forum += 1 + Math.min(2, s.postBlocks / 5);
  else if (s.postBlocks >= 3) scores.listing += 1.5;
  if (s.times >= 4 && s.postBlocks >= 2 && s.postLinkShare < 0.3) scores.forum += 1;
  // Many same-shaped linked blocks holding most of the text: a listing (or a collection).
  // ...unless one block of prose holds more (an article with a grid of teasers beside it).
  if (s.repeatCount >= 5 && s.repeatShare > 0.35 && s.repeatShare * text > s.proseBlock) {
    scores.listing += 1.5 + s.repeatShare;
    if (s.prices >= 3) scores.collection += 1.5;
  }
  if (linkDensity > 0.5) scores.listing += 1;
  // Long prose: an article.
  if (proseShare > 0.5 && s.paragraphText > 1650) scores.article += 1.5;
  // Many short sections (a heading every few hundred characters), a form: a service page.
  const headingsPerK = (s.headings * 1000) / text;
  if (s.headings >= 4 && headingsPerK > 1.8 && linkDensity < 0.5)
    scores.service += 1 + Math.min(1, headingsPerK / 7.2);
  if (s.forms > 0 && s.paragraphText < 2500) scores.service += 0.5;
  // A site's front page sells what the site does; a long dated or slugged path is a post.
  if (/^[^/]*\/?$/.test(path)) scores.service += 1.5;
  const postPath = /\/(?:19|20)\d{2}\/|\/[^/]*-[^/]*-[^/]*-[^/]*-[^/]+\/?$/.test(path);
  if (postPath) scores.article += 0.75;
  let type: PageType = 'article';
  for (const t of PAGE_TYPES) if (scores[t] > scores[type]) type = t;
  // An "article" made of sections (a quarter of its text in paragraphs, or six headings) where no
  // element holds even 8% of the text in its own paragraphs (12% under fifteen headings or more)
  // is a page of short sections (a service, a hub, an index): the article profile would keep one
  // section of it. A headed-less page without paragraphs (text in line-broken divs) says nothing
  // here; nor does a post's path, a thread, or a page that sells.
  const sectioned =
    (s.proseBlock < 0.08 * text && (s.paragraphText >= 0.25 * text || s.headings >= 6)) ||
    (s.proseBlock < 0.12 * text && s.headings >= 15);
  if (
    type === 'article' &&
    sectioned &&
    !postPath &&
    scores.forum === 0 &&
    s.prices < 6 &&
    s.cartButtons === 0
  )
    type = 'service';
  return { type, scores };
}
