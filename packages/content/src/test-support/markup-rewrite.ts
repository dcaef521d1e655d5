/**
 * Markup-only rewrites of an HTML page (the same page re-rendered by another template
 * engine, minifier or CSS toolchain). Used by the property test of markup invariance; not part
 * of the pipeline. Every rewrite keeps what a reader sees:
 *
 * - classes: neutral class tokens are added, and hashed CSS-module/CSS-in-JS suffixes
 *   (`Header_title__3xK9a`, `css-1x9k2q`) are renamed. Class names a page chose with meaning
 *   ("sidebar", "byline", "article-body") are kept: they are the page's own boilerplate and
 *   content signals, and an extractor may legitimately read them.
 * - ids: neutral ids are added where there are none; hashed suffixes are renamed.
 * - attributes: neutral `data-*` and `style` attributes (never display/visibility) are added;
 *   attribute order, quoting and tag-name case change.
 * - whitespace: indentation and line breaks between block elements are added or removed, and
 *   spaces inside text become line breaks plus indentation.
 * - comments are added before and after elements.
 * - runs of whole words are wrapped in span, b, strong, em or i.
 *
 * Neutral tokens are drawn from digits and consonants that spell no word (no vowels, no y):
 * no naming heuristic can read meaning into them. Nothing inside pre/code/textarea, raw-text
 * elements, <head>, <noscript> or <template> changes (whitespace and text are significant or
 * not rendered there).
 */
import type { AnyNode, Element } from 'domhandler';
import {
  DomHandler,
  Element as El,
  Comment as HComment,
  Text as HText,
  ProcessingInstruction,
} from 'domhandler';
import { Parser } from 'htmlparser2';
import { VOID_ELEMENTS } from '../dom/dom.util';
import { prng } from './prng';

export interface RewritePlan {
  seed: number;
  classes: boolean;
  ids: boolean;
  dataAttrs: boolean;
  styles: boolean;
  syntax: boolean;
  whitespace: boolean;
  reflow: boolean;
  comments: boolean;
  wrappers: boolean;
}

const NEUTRAL = '0123456789bcdfhjkmnqstvwxz';
const NEUTRAL_LETTERS = 'bcdfhjkmnqstvwxz';

const BLOCK = new Set(
  'address article aside blockquote body center dd details dialog dir div dl dt fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html li main menu nav ol p section summary table tbody td tfoot th thead tr ul caption legend'.split(
    ' ',
  ),
);
/** Subtrees left exactly as they are. */
const FROZEN = new Set([
  'pre',
  'code',
  'kbd',
  'samp',
  'tt',
  'textarea',
  'script',
  'style',
  'head',
  'title',
  'noscript',
  'template',
  'svg',
  'math',
  'xmp',
  'plaintext',
  'listing',
  'select',
  'option',
  'iframe',
  'noembed',
  'noframes',
]);
const RAW = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext']);
const WRAPPERS = ['span', 'b', 'strong', 'em', 'i'];
/** A hashed suffix: 5-8 letters and digits, with at least one digit, after - or _. */
const HASHED = /^(.*[-_])([A-Za-z0-9]{5,8})$/;

const isEl = (n: AnyNode): n is Element => n instanceof El;
const isTextNode = (n: AnyNode): n is HText => n instanceof HText;

export function parseForRewrite(html: string): AnyNode[] {
  const handler = new DomHandler();
  const parser = new Parser(handler, {
    decodeEntities: true,
    lowerCaseTags: true,
    lowerCaseAttributeNames: true,
  });
  parser.write(html);
  parser.end();
  return handler.root.children;
}

/**
 * Rewrite `html` by `plan`; deterministic for a given plan. `edit` replaces a text wherever it
 * occurs in the body's text (for negative controls: a content change must change the hash).
 */
export function rewriteMarkup(html: string, plan: RewritePlan, edit?: { from: string; to: string }): string {
  const rnd = prng(plan.seed);
  const pick = <T>(xs: readonly T[] | string): T => xs[Math.floor(rnd() * xs.length)] as T;
  const token = (n: number, first = NEUTRAL_LETTERS): string => {
    let s: string = pick(first);
    for (let i = 1; i < n; i++) s += pick(NEUTRAL);
    return s;
  };
  // a rebuild renames a hash the same way everywhere it is used
  const renamed = new Map<string, string>();
  const rehash = (t: string): string => {
    const m = HASHED.exec(t);
    if (!m || !/\d/.test(m[2]!) || !/[A-Za-z]/.test(m[2]!) || /^\d+x\d+$/.test(m[2]!)) return t;
    let r = renamed.get(t);
    if (r === undefined) {
      r = `${m[1]}${token(m[2]!.length - 1, NEUTRAL)}${pick('0123456789')}`;
      renamed.set(t, r);
    }
    return r;
  };
  const indent = (): string => `\n${' '.repeat(Math.floor(rnd() * 12))}`;
  const nodes = parseForRewrite(html);

  const transform = (list: AnyNode[], parent: Element | null, frozen: boolean): AnyNode[] => {
    const out: AnyNode[] = [];
    const parentBlock = parent === null || BLOCK.has(parent.name);
    for (let i = 0; i < list.length; i++) {
      const n = list[i]!;
      if (isEl(n)) {
        const freeze = frozen || FROZEN.has(n.name);
        if (!freeze) mutateAttributes(n);
        n.children = transform(n.children as AnyNode[], n, freeze) as Element['children'];
        if (!freeze && plan.comments && rnd() < 0.05) out.push(new HComment(` ${token(6)} `));
        out.push(n);
        if (!freeze && plan.comments && rnd() < 0.05) out.push(new HComment(token(4)));
        continue;
      }
      if (isTextNode(n) && !frozen) {
        // HTML whitespace only: a no-break space is text
        const blank = /^[ \t\n\r\f]*$/.test(n.data);
        if (blank) {
          // whitespace between two blocks (or at a block's edge next to a block) is not rendered
          const prev = list[i - 1];
          const next = list[i + 1];
          const blockish = (x: AnyNode | undefined, edge: boolean): boolean =>
            x === undefined ? edge && parentBlock : isEl(x) && BLOCK.has(x.name);
          if (plan.whitespace && blockish(prev, true) && blockish(next, true)) {
            if (rnd() < 0.3) continue;
            out.push(new HText(indent()));
            continue;
          }
          out.push(n);
          continue;
        }
        let data = n.data;
        if (edit && data.includes(edit.from)) data = data.split(edit.from).join(edit.to);
        if (plan.reflow) data = data.replace(/ +/g, (m) => (rnd() < 0.15 ? indent() : m));
        if (plan.wrappers && rnd() < 0.25) {
          out.push(...wrapRun(data));
          continue;
        }
        out.push(new HText(data));
        continue;
      }
      out.push(n);
    }
    if (plan.whitespace && !frozen && parentBlock) {
      // indentation between adjacent block siblings that had none
      const spaced: AnyNode[] = [];
      for (let i = 0; i < out.length; i++) {
        const a = out[i]!;
        spaced.push(a);
        const b = out[i + 1];
        if (b && isEl(a) && isEl(b) && BLOCK.has(a.name) && BLOCK.has(b.name) && rnd() < 0.3)
          spaced.push(new HText(indent()));
      }
      return spaced;
    }
    return out;
  };

  /** Split a text into before / wrapped run of whole words / after. */
  const wrapRun = (data: string): AnyNode[] => {
    const parts = data.split(/([ \t\n\r\f]+)/);
    const words: number[] = [];
    for (let i = 0; i < parts.length; i++)
      if (parts[i] !== '' && !/^[ \t\n\r\f]+$/.test(parts[i]!)) words.push(i);
    if (words.length === 0) return [new HText(data)];
    const start = Math.floor(rnd() * words.length);
    const len = 1 + Math.floor(rnd() * Math.min(6, words.length - start));
    const a = words[start]!;
    const b = words[start + len - 1]!;
    const before = parts.slice(0, a).join('');
    const run = parts.slice(a, b + 1).join('');
    const after = parts.slice(b + 1).join('');
    const wrapper = new El(pick(WRAPPERS), {}, [new HText(run)]);
    const res: AnyNode[] = [];
    if (before) res.push(new HText(before));
    res.push(wrapper);
    if (after) res.push(new HText(after));
    return res;
  };

  const mutateAttributes = (el: Element): void => {
    const a = el.attribs;
    if (plan.classes) {
      if (a.class !== undefined) a.class = a.class.split(/\s+/).map(rehash).join(' ');
      if (rnd() < 0.2) a.class = `${a.class ?? ''} ${token(7)}`.trim();
    }
    if (plan.ids) {
      if (a.id !== undefined) a.id = rehash(a.id);
      else if (rnd() < 0.1) a.id = token(8);
    }
    if (plan.dataAttrs && rnd() < 0.15) a[`data-${token(5)}`] = rnd() < 0.5 ? token(4) : '';
    if (plan.styles && rnd() < 0.1) {
      const decl = pick(['color: #333', 'margin: 0 1px', 'line-height: 1.5', 'font-weight: 400']);
      a.style = a.style ? `${a.style.replace(/;\s*$/, '')}; ${decl}` : decl;
    }
  };

  const escText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const escAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
  const serialize = (list: AnyNode[], raw: boolean, parts: string[]): void => {
    for (const n of list) {
      if (isTextNode(n)) parts.push(raw ? n.data : escText(n.data));
      else if (n instanceof HComment) parts.push(`<!--${n.data}-->`);
      else if (n instanceof ProcessingInstruction) parts.push(`<${n.data}>`);
      else if (isEl(n)) {
        const name = plan.syntax && rnd() < 0.1 ? n.name.toUpperCase() : n.name;
        let names = Object.keys(n.attribs);
        if (plan.syntax) names = names.sort(() => rnd() - 0.5);
        let attrs = '';
        for (const k of names) {
          const v = n.attribs[k]!;
          if (plan.syntax && !v.includes("'") && rnd() < 0.3) attrs += ` ${k}='${v.replace(/&/g, '&amp;')}'`;
          else attrs += ` ${k}="${escAttr(v)}"`;
        }
        parts.push(`<${name}${attrs}>`);
        if (VOID_ELEMENTS.has(n.name)) continue;
        serialize(n.children as AnyNode[], RAW.has(n.name), parts);
        parts.push(`</${name}>`);
      } else if ('children' in n) serialize((n as { children: AnyNode[] }).children, raw, parts);
    }
  };
  const parts: string[] = [];
  serialize(transform(nodes, null, false), false, parts);
  return parts.join('');
}

/** Same parse and serialization, no rewrite: separates serializer effects from rewrites. */
export const NO_REWRITE: RewritePlan = {
  seed: 1,
  classes: false,
  ids: false,
  dataAttrs: false,
  styles: false,
  syntax: false,
  whitespace: false,
  reflow: false,
  comments: false,
  wrappers: false,
};
