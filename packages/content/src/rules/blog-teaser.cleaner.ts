/**
 * Service pages: a section that opens with a heading naming the site's blog or articles
 * ("Featured insights", "From our blog", "Latest news", "Our blogs") is a block of teasers for
 * other pages, not the service the page describes, once the page's own text came before it.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { type HeadedSectionRule, removeHeadedSections } from './headed-section';

/** A heading for teasers of the site's own articles; a bare "Insights" or "News" may be a section of its own. */
const BLOG_HEAD =
  /^(?:(?:featured|latest|recent)\s+(?:insights|articles|news|posts|blog posts|(?:client |customer )?stories)|(?:our |the )?blogs?|(?:(?:the )?latest )?from (?:our|the) blog|(?:explore|read|visit) our blog)[\s:.!»›-]*$/i;

const RULE: HeadedSectionRule = {
  heading: BLOG_HEAD,
  tags: new Set(['h2', 'h3', 'h4', 'h5', 'h6', 'p']),
  maxHeading: 60,
  minBefore: 250,
  minBeforeShare: 0.15,
  maxShare: 0.5,
};

export function removeBlogTeasers(root: Element, stats: StatsMap): void {
  removeHeadedSections(root, stats, RULE);
}
