/**
 * Raw field dumps: a shop template that prints every custom field of its product as a definition
 * list, the store's own keys as terms ("retail_price_tier1", "cat_thumb_Navy", "bulk_grid_ids")
 * and image URLs or flags as values, usually hidden by a class. People label their terms in
 * words ("Fabric", "Care"); a list whose terms are mostly code identifiers is data for the page's
 * scripts, not text for its reader. A selling page's pass only: an API reference lists its
 * parameters (`user_id`, `max_tokens`) the same way, and there they are the content.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, textOf } from '../dom/dom.util';

/** A key as code writes it: a word joined to more by underscores ("tab_Shipping and Returns:"). */
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9][\w +-]*)+:?$/;
/** Fewer terms are a short spec list whatever their spelling. */
const MIN_TERMS = 4;
const MIN_SHARE = 0.5;

function isFieldDump(dl: Element): boolean {
  const terms = dl.children.filter((c): c is Element => c.type === 'tag' && c.name === 'dt');
  // <div> wrappers around each dt/dd pair are valid HTML too
  const all = terms.length > 0 ? terms : findAll(dl, (e) => e.name === 'dt');
  if (all.length < MIN_TERMS) return false;
  const coded = all.filter((t) => IDENTIFIER.test(textOf(t))).length;
  return coded / all.length >= MIN_SHARE;
}

export function removeFieldDumps(root: Element, stats: StatsMap): void {
  const dumps = findAll(root, (e) => e.name === 'dl' && isFieldDump(e));
  if (dumps.length > 0) removeAllWithStats(dumps, stats);
}
