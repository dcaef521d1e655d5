/**
 * Does this HTML need a browser to show its content? Decided from measurable signals in the
 * fetched markup, so the (10x more expensive) browser is used only for client-rendered pages.
 *
 * Runs on the worker's event loop for every `auto` fetch, on bodies up to the byte cap, so every
 * scan here is linear in the body: indexOf loops instead of regexes with unbounded repetition
 * between two delimiters (`<[^>]+>` over "<<<<…" was quadratic: 100 KB blocked the loop 14 s).
 */

import type { TextPieces } from '@wcs/net/text-pieces';

export interface JsSignals {
  /** Visible text characters in <body> (scripts, styles, noscript, templates removed). */
  textLength: number;
  scriptCount: number;
  /** An empty mount point: <div id="root|app|__next|__nuxt|…"></div> or <app-root></app-root>. */
  emptyAppShell: boolean;
  /** <noscript> asking the user to enable JavaScript. */
  noscriptWarning: boolean;
}

const SHELL_ID_RE =
  /\bid\s*=\s*["']?(?:root|app|__next|__nuxt|___gatsby|svelte|main-app|app-root|application|react-root|mount)\b/i;
const NOSCRIPT_JS_RE =
  /(enable|activate|turn on|requires?|need|needs|without)\s+(?:\w+\s+){0,3}javascript|javascript\s+(is\s+)?(required|disabled|must be enabled)/i;
/** A noscript message is a sentence: longer content is not a "please enable JavaScript" notice. */
const NOSCRIPT_TEXT_MAX = 2_000;
/** Elements whose content is never visible text. */
const HIDDEN_BLOCKS = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe']);

/** At this much visible text no rule below can hold. */
const TEXT_ENOUGH = 250;
/**
 * The start of a large body is looked at first: most pages show enough text there, and the full
 * scan lowercases the whole page twice (on the worker's event loop, for every fetched page).
 */
const EARLY_WINDOW = 32_768;
const BODY_TAG_RE = /<body(?![a-z0-9_-])/i;
/** Characters BODY_TAG_RE reads from where a match starts (its lookahead included). */
const BODY_TAG_SPAN = 6;

/** Enough visible text in the first EARLY_WINDOW characters from `<body` (large pages only). */
function enoughTextEarly(html: string | TextPieces): boolean {
  if (html.length <= EARLY_WINDOW * 2) return false;
  const at = typeof html === 'string' ? html.search(BODY_TAG_RE) : html.search(BODY_TAG_RE, BODY_TAG_SPAN);
  if (at < 0) return false;
  const window = html.slice(at, at + EARLY_WINDOW);
  return collapseText(visibleParts(window, TEXT_ENOUGH, true)).length >= TEXT_ENOUGH;
}

const isNameChar = (c: number | undefined): boolean =>
  c !== undefined && ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f);

/**
 * Start offsets of `<name` tags (whole name) in `lower`, with the offset of their `>`; a tag
 * without `>` ends the scan. The next search starts after that `>`, so no byte is scanned twice.
 */
function* tags(lower: string, name: string): Generator<[number, number]> {
  const open = `<${name}`;
  let from = 0;
  for (;;) {
    const at = lower.indexOf(open, from);
    if (at < 0) return;
    if (isNameChar(lower.charCodeAt(at + open.length))) {
      from = at + open.length;
      continue;
    }
    const gt = lower.indexOf('>', at + open.length);
    if (gt < 0) return;
    yield [at, gt];
    from = gt + 1;
  }
}

const BODY_CLOSE_RE = /<\/body>/gi;

/**
 * The markup between `<body …>` and the last `</body>` (all of it without a body tag), found
 * without a lower-case copy of the page: a large page's head alone can be hundreds of KB.
 */
function bodyOf(html: string): string {
  const open = html.search(BODY_TAG_RE);
  const gt = open < 0 ? -1 : html.indexOf('>', open + 5);
  if (gt < 0) return html;
  const start = gt + 1;
  let close = -1;
  BODY_CLOSE_RE.lastIndex = start;
  for (let m = BODY_CLOSE_RE.exec(html); m; m = BODY_CLOSE_RE.exec(html)) close = m.index;
  return html.slice(start, close > start ? close : undefined);
}

export function visibleText(html: string): string {
  return collapseText(visibleParts(html, Number.POSITIVE_INFINITY));
}

const collapseText = (parts: string[]): string =>
  parts
    .join('')
    .replace(/&(nbsp|#160);/gi, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/**
 * Raw text pieces of the body outside tags, comments and hidden blocks; stops once the pieces
 * hold `stopAfter` non-space characters (the rules below only ask "is there little text?").
 * `cut`: `html` is only the start of the page, so a block or tag it does not close ends the scan
 * (its end, and whatever it hides, lies beyond).
 */
function visibleParts(html: string, stopAfter: number, cut = false): string[] {
  const body = bodyOf(html);
  const lower = body.toLowerCase();
  const parts: string[] = [];
  let seen = 0;
  const push = (piece: string) => {
    parts.push(piece);
    if (stopAfter !== Number.POSITIVE_INFINITY) seen += piece.replace(/\s+/g, '').length;
  };
  const unclosed = new Set<string>(); // block names with no closing tag after some point: none later either
  let i = 0;
  while (i < body.length && seen < stopAfter) {
    const lt = body.indexOf('<', i);
    if (lt < 0) {
      push(body.slice(i));
      break;
    }
    push(body.slice(i, lt));
    parts.push(' ');
    if (lower.startsWith('<!--', lt)) {
      const end = lower.indexOf('-->', lt + 4);
      if (end < 0) break; // an unclosed comment hides the rest, as in browsers
      i = end + 3;
      continue;
    }
    const gt = body.indexOf('>', lt + 1);
    if (gt < 0) {
      if (!cut) push(body.slice(lt)); // a lone "<" is text
      break;
    }
    let end = lt + 1;
    while (isNameChar(lower.charCodeAt(end))) end++;
    const name = lower.slice(lt + 1, end);
    i = gt + 1;
    if (HIDDEN_BLOCKS.has(name) && !unclosed.has(name)) {
      const close = lower.indexOf(`</${name}`, gt + 1);
      const closeGt = close < 0 ? -1 : lower.indexOf('>', close);
      if (closeGt >= 0) i = closeGt + 1;
      else if (cut) break;
      else unclosed.add(name);
    }
  }
  return parts;
}

/**
 * `indexOf('-->', from)` remembering its last answer: mount points nested in one long comment
 * would otherwise each scan to that comment's end again.
 */
class CommentEnds {
  private from = -1;
  private end = -1;
  constructor(private readonly lower: string) {}
  find(i: number): number {
    if (this.from >= 0 && i >= this.from && (this.end < 0 || i <= this.end)) return this.end;
    this.from = i;
    this.end = this.lower.indexOf('-->', i);
    return this.end;
  }
}

/** After `from`: only whitespace and comments, then `</name>`. */
function emptyUntilClose(lower: string, from: number, name: string, comments: CommentEnds): boolean {
  let i = from;
  for (;;) {
    while (i < lower.length && /\s/.test(lower[i]!)) i++;
    if (lower.startsWith('<!--', i)) {
      const end = comments.find(i + 4);
      if (end < 0) return false;
      i = end + 3;
      continue;
    }
    const close = `</${name}`;
    if (!lower.startsWith(close, i)) return false;
    let j = i + close.length;
    while (j < lower.length && /\s/.test(lower[j]!)) j++;
    return lower[j] === '>';
  }
}

function hasEmptyAppShell(html: string, lower: string): boolean {
  const comments = new CommentEnds(lower);
  for (const [at, gt] of tags(lower, 'div')) {
    if (SHELL_ID_RE.test(html.slice(at, gt)) && emptyUntilClose(lower, gt + 1, 'div', comments)) return true;
  }
  for (const name of ['app-root', 'ng-app']) {
    for (const [, gt] of tags(lower, name)) if (emptyUntilClose(lower, gt + 1, name, comments)) return true;
  }
  return false;
}

function hasNoscriptWarning(lower: string): boolean {
  for (const [, gt] of tags(lower, 'noscript')) {
    const close = lower.indexOf('</noscript>', gt + 1);
    if (close < 0) return false; // no closing tag after this one: none after the later ones either
    if (close - gt <= NOSCRIPT_TEXT_MAX && NOSCRIPT_JS_RE.test(lower.slice(gt + 1, close))) return true;
  }
  return false;
}

export function jsSignals(html: string): JsSignals {
  const lower = html.toLowerCase();
  return {
    textLength: visibleText(html).length,
    scriptCount: [...tags(lower, 'script')].length,
    emptyAppShell: hasEmptyAppShell(html, lower),
    noscriptWarning: hasNoscriptWarning(lower),
  };
}

/**
 * The auto rule: little visible text AND at least one sign of client-side rendering.
 * - < 250 chars of text with an empty app-shell mount point or a "enable JavaScript" noscript;
 * - < 100 chars of text with 3+ script tags;
 * - no text at all but some script.
 * Pages with real server-rendered text never qualify, whatever their scripts.
 */
export function needsJavaScript(page: string | TextPieces): boolean {
  // Every rule needs little text: a page with enough is decided from its first text alone (a
  // decoded page's pieces are then never copied into one string).
  if (enoughTextEarly(page)) return false;
  const html = typeof page === 'string' ? page : page.text;
  if (collapseText(visibleParts(html, TEXT_ENOUGH)).length >= TEXT_ENOUGH) return false;
  const s = jsSignals(html);
  if (s.textLength < 250 && (s.emptyAppShell || s.noscriptWarning)) return true;
  if (s.textLength < 100 && s.scriptCount >= 3) return true;
  if (s.textLength < 20 && s.scriptCount >= 1) return true;
  return false;
}
