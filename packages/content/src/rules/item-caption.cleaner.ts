/**
 * Listing pages: a news front's teasers carry their photos' captions and credits ("Rob Stein/NPR",
 * "A scientist holds a tusk recovered from the Arctic"): furniture of each image, not the list.
 * Article mode trims them from a story (article-furniture.cleaner.ts); region mode kept them. The
 * <figcaption>s go, and blocks named as a caption or credit; unless together they are a large
 * part of the region: then the names lie (a grid whose every card text sits in a "caption").
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll } from '../dom/dom.util';

/** A caption is a line or two; a long one is a story's summary set in a figure. */
const MAX_CAPTION = 600;
/** Captions are a small part of a list; more and they are the items. */
const MAX_SHARE = 0.3;
const CAPTION =
  /(?:^|[\s_-])(?:caption|captions|credit|credits|photo-?credit|image-?credit|wp-caption-text)(?:$|[\s_-])/i;

const isCaption = (e: Element): boolean =>
  e.name === 'figcaption' ||
  (e.name !== 'figure' && CAPTION.test(`${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`));

export function removeItemCaptions(root: Element, stats: StatsMap): void {
  const total = stats.get(root)?.text ?? 0;
  // the outermost caption only: a credit inside a caption goes with it
  const found = findAll(root, isCaption, isCaption).filter((e) => {
    const s = stats.get(e);
    // a linked "caption" is a control of the image ('Click to see full view') or an item's
    // title; one holding an image is the figure
    return !!s && s.text <= MAX_CAPTION && s.link === 0 && s.imgs === 0;
  });
  let sum = 0;
  for (const e of found) sum += stats.get(e)?.text ?? 0;
  if (found.length > 0 && sum <= MAX_SHARE * total) removeAllWithStats(found, stats);
}
