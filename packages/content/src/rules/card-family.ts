/**
 * Repeated cards named like chrome. A listing's items often carry a chrome word in their class
 * ("search-result-card", "recirc-list", "related-item"): search results, recirculation modules
 * and related grids are built from the same components as the page's sidebars. One such block
 * is chrome; many blocks of one name that together hold most of the page's text are the page.
 * Cards are mostly link text (a linked title, a linked image), so they are measured by all their
 * text, not by the text outside links that tells a prose page from its menus.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';

/** Fewer blocks than this are a module beside the content, not a list of items. */
const MIN_CARDS = 3;
/** Share of the surrounding text the blocks of one name must hold together. */
const MIN_SHARE = 0.5;
/**
 * The chrome words that also name the components lists are built from. Words for page furniture
 * (header, footer, menu, sidebar), controls or hidden text never name a page's items.
 */
const CARD_WORDS = new Set([
  'search',
  'related',
  'recommended',
  'recirc',
  'more-stories',
  'widget',
  'promo',
  'promos',
]);

/**
 * Many blocks of one name are items with a smaller share: a news front's dozens of teasers
 * ("PagePromo") sit among long menus, footers and other modules. Widgets only when they hold more
 * than the text outside every named block, or 30% of the page: a blog's sidebar stacks many
 * beside a longer story.
 */
const MANY_CARDS = 6;
const MANY_SHARE = 0.15;
/** Or widgets holding 30% of the page: a sidebar of them beside a story is a smaller part. */
const WIDGET_SHARE = 0.3;

/**
 * Families (chrome words) among `found` whose blocks number at least three and together hold at
 * least half of `total` characters of text (or at least six holding 15%): the items of the page,
 * to be kept.
 */
export function cardFamilies(found: Array<[Element, string]>, stats: StatsMap, total: number): Set<string> {
  const sums = new Map<string, { n: number; text: number }>();
  for (const [el, f] of found) {
    if (!CARD_WORDS.has(f)) continue;
    const s = sums.get(f) ?? { n: 0, text: 0 };
    s.n++;
    s.text += stats.get(el)?.text ?? 0;
    sums.set(f, s);
  }
  const out = new Set<string>();
  if (total <= 0) return out;
  // the text outside every named block, which a sidebar of widgets sits beside
  let named = 0;
  for (const [el] of found) named += stats.get(el)?.text ?? 0;
  const rest = total - named;
  for (const [f, { n, text }] of sums)
    if (
      (n >= MIN_CARDS && text >= MIN_SHARE * total) ||
      ((f !== 'widget' || text > rest || text >= WIDGET_SHARE * total) &&
        n >= MANY_CARDS &&
        text >= MANY_SHARE * total)
    )
      out.add(f);
  return out;
}

/** Text left outside every named region below this share: the page's content is named too. */
const MAX_REST = 0.1;
/** The named region kept then must hold this share of the page. */
const MIN_REGION = 0.3;

/**
 * When named regions hold nearly all of the page (under a tenth of its text lies outside them),
 * one of them is the content: the largest region named with a card word ("related-products"
 * around a shop's only grid), if it holds at least 30% of the page. Its family, or null.
 */
export function loneCardRegion(
  found: Array<[Element, string]>,
  stats: StatsMap,
  total: number,
): string | null {
  if (total <= 0) return null;
  let named = 0;
  let best: [string, number] | null = null;
  for (const [el, f] of found) {
    const t = stats.get(el)?.text ?? 0;
    named += t;
    if (CARD_WORDS.has(f) && (!best || t > best[1])) best = [f, t];
  }
  if (total - named >= MAX_REST * total || !best || best[1] < MIN_REGION * total) return null;
  return best[0];
}
