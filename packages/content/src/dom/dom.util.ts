/**
 * DOM helpers over domhandler nodes. Every walk here is iterative, and `parseHtml` caps nesting
 * depth, so the recursive serializers elsewhere can never overflow the stack on hostile input.
 */
import { type AnyNode, type ChildNode, type Document, Element, type ParentNode, Text } from 'domhandler';
import { Parser } from 'htmlparser2';
import { FastTokenizer } from './fast-tokenizer';
import { CappedDomHandler, type ContentCuts, MAX_ELEMENTS } from './input-caps';
import { CDATA_MARK, CDATA_START, piecesInclude, withoutCdataMarks } from './markup-pieces';

/** Deeper subtrees are flattened to their text and images: real pages stay far below this. */
/** HTML's void elements (no end tag, no children), the obsolete `param` and `keygen` included. */
export const VOID_ELEMENTS: ReadonlySet<string> = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);

export const MAX_DEPTH = 160;

/** Elements that start a new block in rendered output. */
export const BLOCK_TAGS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'html',
  'li',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'ul',
  'caption',
  'legend',
  'listing',
  'plaintext',
  'xmp',
  'frameset',
  'noframes',
  'option',
  'optgroup',
  'search',
]);

/** Never content in any mode. */
export const JUNK_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'title',
  'meta',
  'link',
  'base',
  'object',
  'embed',
  'applet',
  'param',
  'canvas',
  'iframe',
  'frame',
  'frameset',
  'noembed',
  'audio',
  'video',
  'source',
  'track',
  'map',
  'area',
  'datalist',
  'dialog',
  'slot',
]);

// domhandler's CommonJS build re-exports its classes through getters (a keyed property read on
// every access): the hot node tests read them once, at load.
const ELEMENT = Element;
const TEXT = Text;
export const isElement = (n: AnyNode): n is Element => n instanceof ELEMENT;
export const isText = (n: AnyNode): n is Text => n instanceof TEXT;

const PARSE_OPTIONS = {
  decodeEntities: true,
  lowerCaseTags: true,
  lowerCaseAttributeNames: true,
  Tokenizer: FastTokenizer,
};
/** htmlparser2 keeps open elements in an array it unshifts: cost is quadratic in nesting depth. */
const MAX_OPEN_ELEMENTS = 1500;
const CHUNK = 64 * 1024;

/**
 * Parse in chunks, giving up (null) as soon as the open-element stack grows pathological, and
 * stopping (cut) once MAX_ELEMENTS elements were read.
 */
function parseGuarded(html: string | readonly string[], cuts: ContentCuts): Document | null {
  const handler = new CappedDomHandler(cuts);
  const parser = new Parser(handler, PARSE_OPTIONS);
  // `stack` is internal to htmlparser2; if it ever disappears the guard just stops guarding
  const open = parser as unknown as { stack?: unknown[] };
  const chunks = typeof html === 'string' ? chunksOf(html) : html;
  for (let i = 0; i < chunks.length; i++) {
    parser.write(chunks[i] as string);
    if ((open.stack?.length ?? 0) > MAX_OPEN_ELEMENTS) return null;
    if (handler.elements > MAX_ELEMENTS && i + 1 < chunks.length) {
      cuts.elements = true;
      break;
    }
  }
  parser.end();
  return handler.root;
}

function chunksOf(html: string): string[] {
  if (html.length <= CHUNK) return [html];
  const chunks: string[] = [];
  for (let i = 0; i < html.length; i += CHUNK) chunks.push(html.slice(i, i + CHUNK));
  return chunks;
}

/**
 * Tags that can nest without bound; dropped (content kept) when a page nests absurdly deep.
 * `[^<>]*` (not `[^>]*`): each attempt stops at the next "<", so unclosed tags stay linear.
 */
const NESTABLE_TAG =
  /<\/?(?:div|span|section|article|main|aside|header|footer|nav|font|b|i|u|em|strong|small|big|sub|sup|blockquote|ul|ol|li|dl|dd|dt|table|tbody|thead|tfoot|tr|td|th|center|form|fieldset|a|abbr|code|mark|q|s|label|details|summary|figure|[a-z]+-[a-z-]+)\b[^<>]*>/gi;

/**
 * Parse leniently (htmlparser2 decodes entities in text and attributes and never throws).
 * Absurdly deep input is re-parsed without its nestable tags, and at worst as plain text.
 */
export function parseHtml(input: string, cuts: ContentCuts = {}, pieces?: readonly string[]): Document {
  // htmlparser2 hides everything up to "]]>" after a stray <![CDATA[ in HTML; browsers end
  // that bogus comment at the next ">", so the markup after it stays visible.
  const cdata = pieces ? piecesInclude(pieces, CDATA_START) : input.includes(CDATA_START);
  const clean = pieces && cdata ? withoutCdataMarks(pieces) : pieces;
  // The whole markup only when the pieces will not do (read whole, a page's pieces are copied into one string).
  const whole = () => (cdata ? input.replace(CDATA_MARK, '') : input);
  let doc = parseGuarded(clean ?? whole(), cuts);
  if (!doc) {
    const html = whole();
    cuts.depth = true;
    doc =
      parseGuarded(html.replace(NESTABLE_TAG, ' '), cuts) ??
      (parseGuarded(`<html><body><pre>${html.replace(/[<>&]/g, ' ')}</pre></body></html>`, cuts) as Document);
  }
  capDepth(doc, cuts);
  return doc;
}

/** Replace children of nodes at MAX_DEPTH with their descendant text and img/br leaves. */
function capDepth(doc: Document, cuts: ContentCuts): void {
  const stack: Array<[ParentNode, number]> = [[doc, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth >= MAX_DEPTH) {
      if (node.children.some(isElement)) cuts.depth = true;
      flatten(node);
      continue;
    }
    for (const c of node.children) if (isElement(c) && c.children.length > 0) stack.push([c, depth + 1]);
  }
}

function flatten(node: ParentNode): void {
  const leaves: ChildNode[] = [];
  const stack: ChildNode[] = [...node.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (isText(n)) leaves.push(n);
    else if (isElement(n)) {
      if (n.name === 'img' || n.name === 'br') leaves.push(n);
      else if (!JUNK_TAGS.has(n.name))
        for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    }
  }
  setChildren(node, leaves);
}

/** Replace a node's children, keeping parent/prev/next links consistent. */
export function setChildren(node: ParentNode, kids: ChildNode[]): void {
  let prev: ChildNode | null = null;
  for (const k of kids) {
    k.parent = node;
    k.prev = prev;
    if (prev) prev.next = k;
    prev = k;
  }
  if (prev) prev.next = null;
  node.children = kids;
}

export function removeNode(n: ChildNode): void {
  const p = n.parent;
  if (!p) return;
  const idx = p.children.indexOf(n);
  if (idx >= 0) p.children.splice(idx, 1);
  if (n.prev) n.prev.next = n.next;
  if (n.next) n.next.prev = n.prev;
  n.parent = null;
  n.prev = null;
  n.next = null;
}

/** First element with the given tag name, pre-order. */
export function findFirst(root: ParentNode, name: string): Element | null {
  const stack: ChildNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (n.name === name) return n;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return null;
}

/** `el` is the first child element of `section`, with only whitespace text before it. */
export function opensWith(section: ParentNode, el: Element): boolean {
  for (const c of section.children) {
    if (c === el) return true;
    if (isElement(c) || (isText(c) && c.data.trim() !== '')) return false;
  }
  return false;
}

/** Is `el` inside a `name` element, within a few levels (a list item's, a figure's own markup)? */
export function hasAncestor(el: Element, name: string): boolean {
  let p = el.parent;
  for (let d = 0; p && d < 8; d++) {
    if ('name' in p && p.name === name) return true;
    p = p.parent;
  }
  return false;
}

/** `el` is an <a> or holds one. */
export const holdsLink = (el: Element): boolean => el.name === 'a' || findFirst(el, 'a') !== null;

/** All elements matching a predicate, pre-order; `skip` prunes subtrees. */
export function findAll(
  root: ParentNode,
  pred: (e: Element) => boolean,
  skip?: (e: Element) => boolean,
): Element[] {
  const out: Element[] = [];
  const stack: ChildNode[] = [...root.children].reverse();
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (pred(n)) out.push(n);
    if (skip?.(n)) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return out;
}

/** Raw concatenated text of a subtree (no whitespace normalisation), skipping junk tags. */
export function rawText(root: AnyNode): string {
  if (isText(root)) return root.data;
  if (!isElement(root) && !('children' in root)) return '';
  let out = '';
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (isText(n)) out += n.data;
    else if (isElement(n)) {
      if (JUNK_TAGS.has(n.name) && n !== root) continue;
      if (n.name === 'br') out += '\n';
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
    } else if ('children' in n) {
      const kids = (n as ParentNode).children;
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
    }
  }
  return out;
}

const WS = /\s+/g;

/** What `\s` matches besides the ASCII space: tabs and line breaks, nbsp and Unicode's spaces. */
function isOtherSpace(c: number): boolean {
  return c < 0x21
    ? c >= 0x09 && c <= 0x0d
    : c >= 0xa0 &&
        (c === 0xa0 ||
          c === 0x1680 ||
          (c >= 0x2000 && c <= 0x200a) ||
          c === 0x2028 ||
          c === 0x2029 ||
          c === 0x202f ||
          c === 0x205f ||
          c === 0x3000 ||
          c === 0xfeff);
}

/**
 * Collapse all whitespace runs (incl. nbsp) to single spaces and trim. Text already so (single
 * ASCII spaces between words) is returned as is: the replace would copy it whole, a space at a
 * time (half of this function's time on the article pages' text).
 */
export function collapse(s: string): string {
  let space = true; // a leading space is trimmed
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x20 ? space : isOtherSpace(c)) return s.replace(WS, ' ').trim();
    space = c === 0x20;
  }
  return space && s.length > 0 ? s.replace(WS, ' ').trim() : s;
}

/** Text of a subtree with whitespace collapsed: for titles, headings, link texts. */
export const textOf = (n: AnyNode): string => collapse(rawText(n));

/** Detached subtrees keep their parent links: check the chain reaches the root. */
export function hasRemovedAncestor(el: Element, root: Element): boolean {
  let p: ParentNode | null = el.parent;
  while (p && p !== root) p = p.parent;
  return p !== root;
}

/** Whether `a` is a proper ancestor of `el`. */
export function isAncestor(a: Element, el: Element): boolean {
  for (let p: ParentNode | null = el.parent; p; p = p.parent) if (p === a) return true;
  return false;
}
