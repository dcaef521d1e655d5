/** Cheap text measures of raw markup, for pages the DOM has not been read for (or is too costly to). */

// CJK scripts write words without spaces: two characters count as one word.
const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]/g;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu;

/** Words of a text: letter/digit runs, CJK characters counted two to a word. */
export function countWords(text: string): number {
  const cjk = text.match(CJK)?.length ?? 0;
  const rest = cjk > 0 ? text.replace(CJK, ' ') : text;
  return (rest.match(WORD)?.length ?? 0) + Math.ceil(cjk / 2);
}

/** Beyond this, raw markup is read only in part: wall pages are small. */
export const RAW_SCAN_CHARS = 512_000;

const TAG = /<[^>]*>/g;
const NAMED = /&(amp|lt|gt|quot|#39|apos|nbsp|#160);/gi;
const DECODE: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'" };
/** Elements whose text nobody sees. */
const HIDDEN = new Set(['script', 'style', 'template', 'svg', 'title', 'textarea']);
const TAG_NAME = /^\/?([a-zA-Z][a-zA-Z0-9-]*)/;

/** Index of `</name` (lower or upper case) from `from`, or -1; never reads past the first one. */
function closing(s: string, name: string, from: number): number {
  const lower = s.indexOf(`</${name}`, from);
  const upperTag = `</${name.toUpperCase()}`;
  if (lower < 0) return s.indexOf(upperTag, from);
  const upper = s.slice(from, lower).indexOf(upperTag);
  return upper < 0 ? lower : from + upper;
}

/**
 * The visible text of raw markup in segments: text between two tags (a comment joins the text on
 * either side of it, as it does for the reader), scripts, styles, comments and tags dropped,
 * <noscript> kept (challenge pages say "enable JavaScript" there). Reads at most `limit`
 * characters, jumping from tag to tag with indexOf: regexes over a whole page cost milliseconds
 * (V8 interprets a regex the first times it runs). `take` gets each segment, entities still
 * encoded; returning true stops the scan.
 */
function scanVisible(html: string, limit: number, take: (segment: string) => boolean): void {
  const s = html.length > limit ? html.slice(0, limit) : html;
  let segment = '';
  let i = 0;
  while (i < s.length) {
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      segment += s.slice(i);
      break;
    }
    if (lt > i) segment += s.slice(i, lt);
    if (s.startsWith('<!--', lt)) {
      const end = s.indexOf('-->', lt + 4);
      i = end < 0 ? s.length : end + 3;
      continue;
    }
    const gt = s.indexOf('>', lt + 1);
    if (gt < 0) break;
    if (segment && take(segment)) return;
    segment = '';
    const name = TAG_NAME.exec(s.slice(lt + 1, lt + 24))?.[1]?.toLowerCase();
    i = gt + 1;
    if (name && HIDDEN.has(name) && s[lt + 1] !== '/' && s[gt - 1] !== '/') {
      const end = closing(s, name, i);
      i = end < 0 ? s.length : end;
    }
  }
  if (segment) take(segment);
}

const decodeNamed = (s: string): string => s.replace(NAMED, (_, e: string) => DECODE[e.toLowerCase()] ?? ' ');

/** The visible text of raw markup, roughly (scanVisible's segments; its first RAW_SCAN_CHARS). */
export function visibleTextOf(html: string, limit = RAW_SCAN_CHARS): string {
  const parts: string[] = [];
  scanVisible(html, limit, (segment) => {
    parts.push(segment);
    return false;
  });
  return decodeNamed(parts.join(' ')).replace(/\s+/g, ' ').trim();
}

/**
 * Whether the visible text of raw markup has more than `n` words, exactly as
 * `countWords(visibleTextOf(html))` counts them, reading only as far as the (n+1)th word: a word
 * never spans two segments (a tag separates them), so the segments' counts add up, CJK characters
 * apart (two to a word over the whole text).
 */
export function visibleWordsAbove(html: string, n: number, limit = RAW_SCAN_CHARS): boolean {
  let words = 0;
  let cjk = 0;
  let above = false;
  scanVisible(html, limit, (segment) => {
    const text = decodeNamed(segment);
    const c = text.match(CJK)?.length ?? 0;
    cjk += c;
    words += (c > 0 ? text.replace(CJK, ' ') : text).match(WORD)?.length ?? 0;
    above = words + Math.ceil(cjk / 2) > n;
    return above;
  });
  return above;
}

/**
 * Whether `re` matches near one of the `needles` (literal, case-sensitive) in `s`: indexOf finds
 * the candidates, the regex only reads a window around each (the first few of each needle).
 * Every alternative of `re` must contain one of the needles.
 */
export function nearNeedle(s: string, needles: readonly string[], re: RegExp, reach = 400): boolean {
  for (const n of needles) {
    let at = s.indexOf(n);
    for (let k = 0; at >= 0 && k < 8; k++) {
      if (re.test(s.slice(Math.max(0, at - reach), at + n.length + reach))) return true;
      at = s.indexOf(n, at + n.length);
    }
  }
  return false;
}

const strip = (s: string | undefined): string | null => {
  if (s === undefined) return null;
  const t = s
    .replace(TAG, ' ')
    .replace(NAMED, (_, e: string) => DECODE[e.toLowerCase()] ?? ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return t || null;
};

/** The first <name> element in `html`'s first `limit` characters: its inner markup, and whether its closing tag was read. */
function findElement(
  html: string,
  name: string,
  limit: number,
): { inner: string; closed: boolean } | undefined {
  const s = html.length > limit ? html.slice(0, limit) : html;
  const lower = s.indexOf(`<${name}`);
  const upper = s.indexOf(`<${name.toUpperCase()}`);
  let open = lower < 0 ? upper : upper < 0 ? lower : Math.min(lower, upper);
  // `<h1` must not be `<h10`, `<title` not `<titles`
  while (open >= 0 && /[a-z0-9-]/i.test(s[open + name.length + 1] ?? '')) {
    open = s.indexOf(`<${name}`, open + 1);
  }
  if (open < 0) return undefined;
  const start = s.indexOf('>', open);
  if (start < 0) return undefined;
  const end = closing(s, name, start + 1);
  return { inner: s.slice(start + 1, end < 0 ? Math.min(s.length, start + 2000) : end), closed: end >= 0 };
}

/** Characters of raw markup `rawTitle` reads. */
export const TITLE_CHARS = 65_536;
/** Characters `rawTitleOf` reads first: most titles are near the top. */
const NEAR_TITLE_CHARS = 8_192;

/** <title> of raw markup (its first TITLE_CHARS characters). */
export const rawTitle = (html: string): string | null =>
  strip(findElement(html, 'title', TITLE_CHARS)?.inner);

/**
 * `rawTitle` of markup given by its prefix (`prefix(n)`: its first n characters). A whole <title>
 * element in the first NEAR_TITLE_CHARS is the one the full read finds (the first); only without
 * one is TITLE_CHARS read.
 */
export function rawTitleOf(prefix: (chars: number) => string): string | null {
  const near = prefix(NEAR_TITLE_CHARS);
  const found = findElement(near, 'title', NEAR_TITLE_CHARS);
  if (near.length < NEAR_TITLE_CHARS || found?.closed) return strip(found?.inner);
  return rawTitle(prefix(TITLE_CHARS));
}

/** The first <h1> of raw markup (read up to RAW_SCAN_CHARS). */
export const rawH1 = (html: string): string | null => strip(findElement(html, 'h1', RAW_SCAN_CHARS)?.inner);

/** Words the pipeline's character counts stand for (its statistics count characters). */
export const wordsFromChars = (chars: number): number => Math.round(chars / 6);

/** A page's visible text and word count, read from the markup once and only when needed. */
export class LazyPage {
  private text: string | undefined;
  private wordCount: number | undefined;
  /** The largest limit the page is known to have more words than (wordsAtMost). */
  private moreThan = -1;
  constructor(
    private readonly body: string,
    private readonly known: number | undefined,
  ) {}
  words(): number {
    if (this.known !== undefined) return this.known;
    this.wordCount ??= countWords(this.visible());
    return this.wordCount;
  }
  /**
   * `words() <= n`, reading the markup only up to its (n+1)th word when the count is not known yet;
   * a page found to have more than n words answers smaller limits without reading it again.
   */
  wordsAtMost(n: number): boolean {
    if (this.known !== undefined) return this.known <= n;
    if (this.wordCount !== undefined) return this.wordCount <= n;
    if (n <= this.moreThan) return false;
    if (!visibleWordsAbove(this.body, n)) return true;
    this.moreThan = n;
    return false;
  }
  visible(): string {
    this.text ??= visibleTextOf(this.body);
    return this.text;
  }
}
