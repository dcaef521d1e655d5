/**
 * The page's title heading: the visible <h1> (else <h2>) whose words are the title the page
 * declares (og:title, <title>, JSON-LD headline), kept at the top of the main content when it
 * sits inside the chosen content or just above it. A page that shows no such heading gets
 * none: the declared title alone is never turned into a heading, and a heading that is the
 * site's name (a logo in an <h1>) is not the page's title.
 */
import { type ChildNode, Element, type ParentNode, Text } from 'domhandler';
import { newStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, isText, setChildren, textOf } from '../dom/dom.util';
import { isHidden } from './boilerplate.cleaner';

export interface TitleCandidate {
  el: Element;
  text: string;
  level: number;
  score: number;
  /** Ancestors from the heading's parent up to the body, before any removal. */
  chain: Element[];
  /** Each ancestor's children before any removal (removal detaches, positions stay known). */
  kids: Map<Element, ChildNode[]>;
}

/** Live text allowed between the title and the start of the content (a byline, a dek). */
const MAX_GAP = 300;
const MAX_TITLE = 300;
const MIN_MATCH = 0.75;
const MAX_CANDIDATES = 8;

const ASCII = /^[\x20-\x7e]*$/;
const norm = (s: string): string =>
  ASCII.test(s)
    ? s
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, ' ')
        .trim()
    : s
        .normalize('NFKC')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, ' ')
        .trim();

const words = (s: string): Set<string> =>
  new Set(
    norm(s)
      .split(' ')
      .filter((w) => w !== ''),
  );

/** "Headline – Section | Site" → the pieces between separators. */
const SEPARATOR = /\s+[|\-–—:·•»/]\s+|\s*[|·•»]\s*/;

/** The longest piece of a declared title: the site's name is the short piece. */
function mainPiece(title: string): string {
  let best = '';
  for (const p of title.split(SEPARATOR)) if (words(p).size > words(best).size) best = p;
  return best;
}

function overlap(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let n = 0;
  for (const w of a) if (b.has(w)) n++;
  const p = n / a.size;
  const r = n / b.size;
  return p + r === 0 ? 0 : (2 * p * r) / (p + r);
}

/** How well a heading's text says the page's declared title (0..1). */
export function titleMatch(text: string, titles: string[], siteName?: string | null): number {
  return titleMatcher(titles, siteName)(text);
}

/** titleMatch with the declared titles prepared once per page. */
function titleMatcher(titles: string[], siteName?: string | null): (text: string) => number {
  const prepared = titles.map((t) => {
    const piece = mainPiece(t);
    return { whole: norm(t), words: words(t), piece: norm(piece), pieceWords: words(piece) };
  });
  const site = siteName ? norm(siteName) : null;
  // a heading far shorter or longer than every declared title cannot say it
  const lengths = prepared.flatMap((t) => [t.whole.length, t.piece.length]).filter((n) => n > 0);
  const shortest = Math.min(...lengths);
  const longest = Math.max(...lengths);
  return (text) => {
    if (text.length < shortest / 3 || text.length > longest * 3) return 0;
    const h = norm(text);
    if (h === '') return 0;
    if (site === h && !prepared.some((t) => t.piece === h)) return 0;
    const hw = new Set(h.split(' '));
    let best = 0;
    for (const t of prepared) {
      if (t.whole === h) return 1;
      best = Math.max(best, overlap(hw, t.words), overlap(hw, t.pieceWords));
    }
    return best;
  };
}

/** Visible h1/h2 headings saying the title, best first; found before any removal. */
export function findTitleCandidates(
  body: Element,
  titles: string[],
  siteName?: string | null,
  headings?: Element[],
): TitleCandidate[] {
  if (titles.length === 0) return [];
  const match = titleMatcher(titles, siteName);
  const out: TitleCandidate[] = [];
  const found = { h1: 0, h2: 0 };
  for (const el of headings ?? findAll(body, (e) => e.name === 'h1' || e.name === 'h2')) {
    // a page repeating its title a thousand times still has a handful of places for it
    if (found[el.name as 'h1' | 'h2'] >= MAX_CANDIDATES) continue;
    const text = textOf(el);
    if (text === '' || text.length > MAX_TITLE) continue;
    const score = match(text);
    if (score < MIN_MATCH || isLogo(el, text, siteName)) continue;
    const chain: Element[] = [];
    let hidden = isHidden(el);
    for (let p = el.parent; p && isElement(p); p = p.parent) {
      chain.push(p);
      if (isHidden(p)) hidden = true;
      if (p === body) break;
    }
    if (hidden || chain[chain.length - 1] !== body) continue;
    found[el.name as 'h1' | 'h2']++;
    const kids = new Map<Element, ChildNode[]>();
    for (const a of chain) kids.set(a, [...a.children]);
    out.push({ el, text, level: el.name === 'h1' ? 1 : 2, score, chain, kids });
  }
  // an h1 before any h2; the closer match first
  return out.sort((a, b) => a.level - b.level || b.score - a.score);
}

function attached(n: ChildNode, body: Element): boolean {
  let p: ParentNode | null = n.parent;
  while (p && p !== body) p = p.parent;
  return p === body;
}

function liveText(n: ChildNode, stats: StatsMap): number {
  if (isText(n)) return n.data.trim().length;
  return isElement(n) ? (stats.get(n)?.text ?? 0) : 0;
}

/**
 * Is the heading inside the chosen content, or just above its start (nothing but a little
 * text between them once chrome is gone)? Decided before the chosen nodes are re-parented.
 */
function placement(
  c: TitleCandidate,
  chosen: Element[],
  start: Element,
  body: Element,
  stats: StatsMap,
): 'inside' | 'above' | null {
  const chosenSet = new Set<ParentNode>(chosen);
  if (chosenSet.has(c.el) || c.chain.some((a) => chosenSet.has(a)))
    return attached(c.el, body) ? 'inside' : 'above';
  // lowest common ancestor of the heading (original chain) and the content's start (live)
  const mine = new Set<ParentNode>(c.chain);
  const startPath: Element[] = [start];
  let lca: ParentNode | null = null;
  for (let p: ParentNode | null = start.parent; p; p = p.parent) {
    if (mine.has(p)) {
      lca = p;
      break;
    }
    if (isElement(p)) startPath.push(p);
  }
  if (!lca || !isElement(lca)) return null;
  const branchH = c.chain[c.chain.indexOf(lca) - 1] ?? c.el;
  const branchC = startPath[startPath.length - 1]!;
  const orig = c.kids.get(lca) ?? [];
  const iH = orig.indexOf(branchH);
  const iC = orig.indexOf(branchC);
  if (iH < 0 || iC < 0 || iH >= iC) return null;
  let gap = 0;
  // after the heading inside its own branch
  let n: ChildNode = c.el;
  for (const a of c.chain) {
    if (a === lca) break;
    const sibs = c.kids.get(a) ?? [];
    for (let i = sibs.indexOf(n) + 1; i < sibs.length; i++)
      if (attached(sibs[i]!, body)) gap += liveText(sibs[i]!, stats);
    n = a;
  }
  // between the two branches
  for (let i = iH + 1; i < iC; i++) if (orig[i]!.parent === lca) gap += liveText(orig[i]!, stats);
  // before the content's start inside its branch
  for (const e of startPath) {
    if (e === branchC) break;
    for (let s = e.prev; s; s = s.prev) gap += liveText(s, stats);
  }
  return gap <= MAX_GAP ? 'above' : null;
}

export interface TitlePlan {
  candidate: TitleCandidate;
  /** The heading stays where it is (inside the content) when it survives cleaning. */
  inside: boolean;
}

/**
 * `start` is where the content itself begins: the first chosen block holding prose (blocks
 * that joined the winner before it, such as a teaser grid, are between a heading and it).
 */
export function planTitle(
  cands: TitleCandidate[],
  chosen: Element[],
  start: Element,
  body: Element,
  stats: StatsMap,
  siteName?: string | null,
): TitlePlan | null {
  for (const c of cands) {
    const where = placement(c, chosen, start, body, stats);
    if (where) return { candidate: c, inside: where === 'inside' };
  }
  return topHeading(chosen, stats, siteName);
}

/**
 * No heading says the declared title (an SEO <title> worded otherwise, or none): an <h1> that
 * opens the chosen content itself (at most MAX_GAP characters before it) is still the page's
 * headline — unless it is the site's logo (its name, or a link to the home page).
 */
function topHeading(chosen: Element[], stats: StatsMap, siteName?: string | null): TitlePlan | null {
  let before = 0;
  const stack: ChildNode[] = [];
  for (let i = chosen.length - 1; i >= 0; i--) stack.push(chosen[i]!);
  while (stack.length > 0 && before <= MAX_GAP) {
    const n = stack.pop()!;
    if (isText(n)) {
      before += n.data.replace(/\s+/g, '').length;
      continue;
    }
    if (!isElement(n)) continue;
    if (n.name === 'h1') {
      const text = textOf(n);
      if (text === '' || text.length > MAX_TITLE || isLogo(n, text, siteName)) return null;
      return { candidate: { el: n, text, level: 1, score: 0, chain: [], kids: new Map() }, inside: true };
    }
    if (isHidden(n) || !stats.has(n)) continue;
    for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!);
  }
  return null;
}

function isLogo(h: Element, text: string, siteName?: string | null): boolean {
  if (siteName && norm(siteName) === norm(text)) return true;
  for (const a of findAll(h, (e) => e.name === 'a')) {
    const href = (a.attribs.href ?? '').trim();
    if (/^(?:\/|\.\/|index\.\w+|https?:\/\/[^/?#]+\/?)$/i.test(href)) return true;
  }
  return findAll(h, (e) => e.name === 'img').length > 0 && text.length < 40;
}

/**
 * After cleaning: the title heading is in the content exactly once. If cleaning (or chrome
 * removal) took it, or it sat above the content, a plain heading with its text goes first.
 */
export function ensureTitle(root: Element, plan: TitlePlan, stats: StatsMap): void {
  const { candidate: c } = plan;
  if (plan.inside && attached(c.el, root)) {
    // the page's title is the document's first-level heading, whatever level the site gave it
    c.el.name = 'h1';
    return;
  }
  const want = norm(c.text);
  for (const h of findAll(root, (e) => /^h[1-6]$/.test(e.name))) if (norm(textOf(h)) === want) return;
  const heading = new Element('h1', {});
  setChildren(heading, [new Text(c.text)]);
  const s = stats.get(root);
  stats.set(heading, { ...newStats(), text: c.text.length, inline: c.text.length });
  if (s) {
    s.text += c.text.length;
    s.headings++;
  }
  setChildren(root, [heading, ...root.children]);
}
