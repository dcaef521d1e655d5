/**
 * Listing and service pages: after the list, sites add sections of other content ("Trending
 * stories", "Recommended articles", "You may also like"): teasers for other pages, not the list
 * the page is. A section that opens with such a heading goes once most of the region came before
 * it; the section is the outermost ancestor that starts with the heading and holds a small part
 * of the region.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { type HeadedSectionRule, removeHeadedSections } from './headed-section';

/** A heading for other pages than the list's. */
const OTHER_HEAD =
  /^(?:(?:more|other|related|recommended|popular|trending|similar)\s+(?:stories|articles|posts|news|reads|pages|links|guides|videos)|trending(?: now)?|most (?:popular|read|viewed|shared)|you (?:may|might) also like|don'?t miss|further reading)[\s:.!»›-]*$/i;

const RULE: HeadedSectionRule = {
  heading: OTHER_HEAD,
  tags: new Set(['h2', 'h3', 'h4', 'h5', 'h6']),
  maxHeading: 60,
  minBefore: 250,
  minBeforeShare: 0.5,
  maxShare: 0.4,
};

export function removeRecirculation(root: Element, stats: StatsMap): void {
  removeHeadedSections(root, stats, RULE);
}
