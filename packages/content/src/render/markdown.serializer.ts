/**
 * Markdown (and plain text) from domhandler nodes, without turndown: one walk that splits the
 * tree into blocks, renders inline runs with collapsed whitespace, and formats lists, tables,
 * code fences and quotes. Recursion depth is bounded by parseHtml's depth cap.
 */
import type { Element, ParentNode } from 'domhandler';
import { isBlockName, type StatsMap } from '../dom/content-stats';
import { isElement, isText, rawText } from '../dom/dom.util';
import { mdUrl, type UrlResolver } from '../dom/url.util';
import { linkFirstBlock } from './block-link';
import { renderTable } from './table.serializer';

const WS = /\s+/g;
const MD_SPECIAL = /[\\`*_[\]]/;
const MD_SPECIAL_G = /[\\`*_[\]]/g;
/**
 * A fence longer than any backtick run in the body (at least three), found in one pass: growing
 * the fence while `body.includes(fence)` was quadratic (a <pre> of 40k backticks took 1 s).
 */
export function codeFence(body: string): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < body.length; i++) {
    if (body.charCodeAt(i) === 0x60) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

const LINE_START = /^(#{1,6}\s|[-+>]\s|=+\s*$|\d+[.)]\s|~~~|```)/;

export interface RenderOptions {
  resolver: UrlResolver;
  stats?: StatsMap;
  /** false renders plain text: same blocks, no syntax. */
  markdown: boolean;
}

const CODE_LANG = /(?:^|\s)(?:language|lang|highlight-source|highlight|brush:?)-([\w+#.-]+)/i;

export function codeLanguage(pre: Element): string | null {
  const probe = (e: Element | null | undefined): string | null => {
    if (!e) return null;
    const m = CODE_LANG.exec(e.attribs.class ?? '');
    return m?.[1]?.toLowerCase() ?? e.attribs['data-lang'] ?? e.attribs['data-language'] ?? null;
  };
  const code = pre.children.find((c): c is Element => isElement(c) && c.name === 'code');
  const parent = pre.parent && isElement(pre.parent) ? pre.parent : null;
  const own = probe(pre) ?? probe(code) ?? probe(parent);
  if (own !== null) return own;
  // Sphinx and Pygments wrap twice: <div class="highlight-python"><div class="highlight"><pre>.
  // That far up only a plain name counts: a token with digits may be a build's class hash, and
  // "default" names no language.
  const grand = parent?.parent && isElement(parent.parent) ? probe(parent.parent) : null;
  return grand !== null && /^[a-z+#-]+$/.test(grand) && grand !== 'default' ? grand : null;
}

/** push(...xs) overflows the call stack past ~100k items: huge pages have that many blocks. */
function append(out: string[], xs: string[]): void {
  for (const x of xs) out.push(x);
}

export class BlockRenderer {
  private strong = false;
  private em = false;

  constructor(private readonly o: RenderOptions) {}

  render(root: ParentNode): string {
    return this.blocks(root)
      .join('\n\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim();
  }

  /** Is this element a block, or an inline element wrapping blocks (e.g. <a><div>)? */
  private isBlock(el: Element): boolean {
    if (isBlockName(el.name)) return true;
    if (el.children.length === 0) return false;
    const s = this.o.stats?.get(el);
    if (s) return s.text > s.inline;
    return el.children.some((c) => isElement(c) && isBlockName(c.name));
  }

  blocks(node: ParentNode): string[] {
    const out: string[] = [];
    let inline = '';
    const flush = (): void => {
      const p = this.paragraph(inline);
      if (p) out.push(p);
      inline = '';
    };
    for (const c of node.children) {
      if (isText(c)) inline += this.text(c.data);
      else if (isElement(c)) {
        if (this.isBlock(c)) {
          flush();
          this.block(c, out);
        } else inline += this.inline(c);
      }
    }
    flush();
    return out;
  }

  /** Blocks of one element, as if it were a container's only child. */
  blocksOf(el: Element): string[] {
    const out: string[] = [];
    if (this.isBlock(el)) this.block(el, out);
    else {
      const p = this.paragraph(this.inline(el));
      if (p) out.push(p);
    }
    return out;
  }

  private paragraph(s: string): string {
    let p = s
      .replace(/ *\n */g, '\n')
      .replace(/ {2,}/g, ' ')
      .trim();
    if (p === '') return '';
    if (this.o.markdown) {
      p = p.replace(/\n/g, '  \n');
      if (LINE_START.test(p)) p = `\\${p}`;
    }
    return p;
  }

  private text(data: string): string {
    const t = data.replace(WS, ' ');
    return this.o.markdown && MD_SPECIAL.test(t) ? t.replace(MD_SPECIAL_G, '\\$&') : t;
  }

  private block(el: Element, out: string[]): void {
    const md = this.o.markdown;
    switch (el.name) {
      case 'h1':
      case 'h2':
      case 'h3':
      case 'h4':
      case 'h5':
      case 'h6': {
        const t = this.inlineOf(el).replace(/\s+/g, ' ').trim();
        if (t) out.push(md ? `${'#'.repeat(Number(el.name[1]))} ${t}` : t);
        return;
      }
      case 'pre':
        out.push(this.code(el));
        return;
      case 'blockquote': {
        const inner = this.blocks(el).join('\n\n');
        if (inner) out.push(md ? inner.replace(/^/gm, '> ').replace(/^> $/gm, '>') : inner);
        return;
      }
      case 'ul':
      case 'ol':
      case 'menu':
      case 'dir': {
        const l = this.list(el, el.name === 'ol');
        if (l) out.push(l);
        return;
      }
      case 'li': {
        const l = this.item(el, md ? '- ' : '');
        if (l) out.push(l);
        return;
      }
      case 'table': {
        const t = renderTable(el, this, md);
        append(out, t ?? this.blocks(el));
        return;
      }
      case 'hr': {
        // <hr data-page="N"> marks where page N of a converted PDF starts (@wcs/documents).
        const page = el.attribs['data-page'];
        if (md) out.push(page !== undefined && /^\d{1,6}$/.test(page) ? `<!-- page ${page} -->` : '---');
        return;
      }
      case 'br':
        return;
      case 'a': {
        const inner = this.blocks(el);
        const href = md && el.attribs.href ? this.o.resolver.resolve(el.attribs.href) : null;
        if (href) linkFirstBlock(inner, mdUrl(href));
        append(out, inner);
        return;
      }
      default:
        append(out, this.blocks(el));
    }
  }

  private code(pre: Element): string {
    const body = rawText(pre).replace(/^\n/, '').trimEnd();
    if (!this.o.markdown) return body;
    const lang = codeLanguage(pre) ?? '';
    const fence = codeFence(body);
    return `${fence}${lang}\n${body}\n${fence}`;
  }

  list(el: Element, ordered: boolean): string {
    const md = this.o.markdown;
    let n = Number.parseInt(el.attribs.start ?? '1', 10);
    if (!Number.isFinite(n)) n = 1;
    const items: string[] = [];
    // loose text and inline elements directly inside the list (invalid, but browsers show
    // them): one paragraph per run, placed like a stray wrapper
    let loose = '';
    const addInner = (inner: string): void => {
      if (!inner) return;
      if (items.length > 0 && md) items[items.length - 1] += `\n${inner.replace(/^(?=.)/gm, '   ')}`;
      else items.push(inner);
    };
    const flushLoose = (): void => {
      if (loose !== '') addInner(this.paragraph(loose));
      loose = '';
    };
    for (const c of el.children) {
      if (isText(c)) {
        loose += this.text(c.data);
        continue;
      }
      if (!isElement(c)) continue;
      if (!this.isBlock(c)) {
        loose += this.inline(c);
        continue;
      }
      flushLoose();
      if (c.name === 'li') {
        const marker = md ? (ordered ? `${n}. ` : '- ') : '';
        const it = this.item(c, marker);
        if (it) {
          items.push(it);
          n++;
        }
      } else {
        // stray nested list or wrapper directly inside <ul>: indent under the previous item
        addInner(this.blocksOf(c).join('\n'));
      }
    }
    flushLoose();
    return items.join('\n');
  }

  private item(li: Element, marker: string): string {
    const parts = this.blocks(li);
    if (parts.length === 0) return '';
    let body = parts[0]!;
    for (let i = 1; i < parts.length; i++) {
      const p = parts[i]!;
      body += !this.o.markdown || /^(?:[-*+]|\d+\.) /.test(p) ? `\n${p}` : `\n\n${p}`;
    }
    if (!marker) return body;
    const pad = ' '.repeat(marker.length);
    return marker + body.replace(/\n(?=.)/g, `\n${pad}`);
  }

  /** Inline markdown of an element's children (used by headings and table cells). */
  inlineOf(el: ParentNode): string {
    let s = '';
    for (const c of el.children) {
      if (isText(c)) s += this.text(c.data);
      else if (isElement(c)) s += this.isBlock(c) ? ` ${this.blocks(c).join(' ')} ` : this.inline(c);
    }
    return s;
  }

  private inline(el: Element): string {
    const md = this.o.markdown;
    switch (el.name) {
      case 'br':
        return '\n';
      case 'img':
        return md ? this.image(el) : '';
      case 'a':
        return this.link(el);
      case 'strong':
      case 'b':
        return md && !this.strong ? this.wrap(el, '**', 'strong') : this.inlineOf(el);
      case 'em':
      case 'i':
        return md && !this.em ? this.wrap(el, '*', 'em') : this.inlineOf(el);
      case 's':
      case 'del':
      case 'strike': {
        const t = this.inlineOf(el);
        return md && t.trim() ? this.around(t, '~~') : t;
      }
      case 'code':
      case 'kbd':
      case 'samp':
      case 'tt': {
        const t = rawText(el).replace(WS, ' ');
        if (!md || !t.trim()) return t;
        const fence = t.includes('`') ? '``' : '`';
        const pad = t.startsWith('`') || t.endsWith('`') ? ' ' : '';
        return this.around(t, fence, pad);
      }
      case 'wbr':
        return '';
      default:
        return this.inlineOf(el);
    }
  }

  /** Emphasis markers must hug the text: move surrounding spaces outside them. */
  private around(t: string, mark: string, pad = ''): string {
    const core = t.trim();
    if (!core) return t;
    const lead = t.startsWith(' ') ? ' ' : '';
    const trail = t.endsWith(' ') ? ' ' : '';
    return `${lead}${mark}${pad}${core}${pad}${mark}${trail}`;
  }

  private wrap(el: Element, mark: string, flag: 'strong' | 'em'): string {
    this[flag] = true;
    const t = this.inlineOf(el);
    this[flag] = false;
    return t.includes('\n') ? t : this.around(t, mark);
  }

  private image(el: Element): string {
    const a = el.attribs;
    const src = this.o.resolver.resolveImage(
      a.src && !a.src.startsWith('data:')
        ? a.src
        : (a['data-src'] ?? a['data-lazy-src'] ?? a['data-original'] ?? a.src),
      a.srcset ?? a['data-srcset'],
    );
    if (!src) return '';
    const alt = (a.alt ?? '')
      .replace(WS, ' ')
      .trim()
      .replace(/[[\]\\]/g, '\\$&');
    return `![${alt}](${mdUrl(src)})`;
  }

  private link(el: Element): string {
    const t = this.inlineOf(el);
    if (!this.o.markdown) return t;
    const core = t.replace(/\s+/g, ' ').trim();
    if (!core) return t.includes('\n') ? '\n' : '';
    const href = this.o.resolver.resolve(el.attribs.href);
    if (!href) return t;
    const lead = /^\s/.test(t) ? ' ' : '';
    const trail = /\s$/.test(t) ? ' ' : '';
    return `${lead}[${core}](${mdUrl(href)})${trail}`;
  }
}
