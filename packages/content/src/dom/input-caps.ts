/**
 * Input caps of the content pipeline: what a page may put into the parser before it is cut, and
 * the `warning` a cut page carries. Limits are far above real pages (documented in
 * docs/reliability/content.md); they exist so one hostile page costs bounded memory and time.
 */
import { type DataNode, DomHandler } from 'domhandler';

/** Characters of HTML kept after scripts/styles/comments are stripped (tail cut beyond). */
export const MAX_HTML_CHARS = 12_000_000;
/** Elements parsed; the rest of the page (from the next 64 KiB chunk on) is dropped. */
export const MAX_ELEMENTS = 100_000;
/** Characters kept in one text node. */
export const MAX_TEXT_NODE_CHARS = 1_000_000;
/** Links returned for crawling/mapping from one page. */
export const MAX_PAGE_LINKS = 20_000;
/** Image URLs listed for the `images` format from one page. */
export const MAX_PAGE_IMAGES = 20_000;

/** What was cut while reading one page (each flag is one sentence of the warning). */
export interface ContentCuts {
  html?: boolean;
  elements?: boolean;
  depth?: boolean;
  textNode?: boolean;
  links?: boolean;
  images?: boolean;
}

/** The document's `warning` for a cut page, undefined when nothing was cut. */
export function warningFor(cuts: ContentCuts): string | undefined {
  const parts: string[] = [];
  if (cuts.html) parts.push(`the page beyond ${MAX_HTML_CHARS} characters was dropped`);
  if (cuts.elements) parts.push(`elements beyond ${MAX_ELEMENTS} were dropped`);
  if (cuts.depth) parts.push('nesting too deep was flattened');
  if (cuts.textNode) parts.push(`text nodes were cut at ${MAX_TEXT_NODE_CHARS} characters`);
  if (cuts.links) parts.push(`links beyond ${MAX_PAGE_LINKS} were not followed`);
  if (cuts.images) parts.push(`images beyond ${MAX_PAGE_IMAGES} were not listed`);
  return parts.length > 0 ? `Page content was cut: ${parts.join('; ')}.` : undefined;
}

/** A DomHandler that counts elements and caps text nodes while the tree is built. */
export class CappedDomHandler extends DomHandler {
  elements = 0;

  constructor(private readonly cuts: ContentCuts) {
    super();
  }

  override onopentag(name: string, attribs: { [key: string]: string }): void {
    this.elements++;
    super.onopentag(name, attribs);
  }

  override ontext(data: string): void {
    const last: DataNode | null = this.lastNode;
    const have = last && last.type === 'text' ? last.data.length : 0;
    if (have + data.length > MAX_TEXT_NODE_CHARS) {
      this.cuts.textNode = true;
      const room = MAX_TEXT_NODE_CHARS - have;
      if (room <= 0) return;
      super.ontext(data.slice(0, room));
      return;
    }
    super.ontext(data);
  }
}

const HEAVY_TAGS: ReadonlySet<string> = new Set(['script', 'style', 'svg']);
const isNameChar = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x5f;

/**
 * Remove <script>, <style>, <svg> blocks and comments from a huge page, in one linear pass (a
 * lazy regex per block was quadratic on unclosed tags: 200k "<script>" took 30 s). Removed without
 * a trace: a comment or script between two words renders no space. Unclosed blocks are kept.
 */
export function stripHeavyBlocks(html: string): string {
  const lower = html.toLowerCase();
  const kept: string[] = [];
  const unclosed = new Set<string>(); // no closing tag after some point: none after later ones either
  let commentsClose = true;
  let keepFrom = 0;
  let from = 0;
  for (;;) {
    const lt = lower.indexOf('<', from);
    if (lt < 0) break;
    if (lower.startsWith('<!--', lt)) {
      const end = commentsClose ? lower.indexOf('-->', lt + 4) : -1;
      if (end < 0) {
        commentsClose = false;
        from = lt + 4;
        continue;
      }
      kept.push(html.slice(keepFrom, lt));
      keepFrom = from = end + 3;
      continue;
    }
    let e = lt + 1;
    while (e < lower.length && isNameChar(lower.charCodeAt(e))) e++;
    const name = lower.slice(lt + 1, e);
    if (HEAVY_TAGS.has(name) && !unclosed.has(name)) {
      const close = lower.indexOf(`</${name}`, e);
      const gt = close < 0 ? -1 : lower.indexOf('>', close);
      if (gt < 0) {
        unclosed.add(name);
        from = e;
        continue;
      }
      kept.push(html.slice(keepFrom, lt));
      keepFrom = from = gt + 1;
      continue;
    }
    from = lt + 1;
  }
  kept.push(html.slice(keepFrom));
  return kept.join('');
}
