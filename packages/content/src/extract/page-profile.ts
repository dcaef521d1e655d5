/**
 * Extraction profiles per page type: what each type of page changes in main-content
 * extraction, in one table. `main-content.extractor.ts` runs the steps in order and asks the page
 * type's profile at each; the rules themselves live in their own files, each with its tests.
 */

import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { removeAccountPrompts } from '../rules/account-prompt.cleaner';
import { removeBlogTeasers } from '../rules/blog-teaser.cleaner';
import type { Spare } from '../rules/boilerplate.cleaner';
import { removeCardBadges } from '../rules/card-badge.cleaner';
import { removeCardControls } from '../rules/card-control.cleaner';
import { removeCardLabels } from '../rules/card-label.cleaner';
import { listCards } from '../rules/card-list';
import { removeCardVariants } from '../rules/card-variant.cleaner';
import { introBefore } from '../rules/collection-intro';
import { trimCrossSellSections } from '../rules/cross-sell.cleaner';
import { removeCallToActionButtons } from '../rules/cta-button.cleaner';
import { removeCurrencyLists } from '../rules/currency-list.cleaner';
import { isDetailSheet } from '../rules/detail-sheet';
import { removeDocsNavigation } from '../rules/docs-navigation.cleaner';
import { removeErrorStates } from '../rules/error-state.cleaner';
import { removeFacets } from '../rules/facet.cleaner';
import { removeFieldDumps } from '../rules/field-dump.cleaner';
import { cleanForumPosts } from '../rules/forum-post.cleaner';
import { isThreadPost } from '../rules/forum-replies';
import { removeItemActions } from '../rules/item-action.cleaner';
import { removeItemCaptions } from '../rules/item-caption.cleaner';
import { listingItems } from '../rules/item-grid';
import { removeItemMetaLines } from '../rules/item-meta.cleaner';
import { removeLoadingStates } from '../rules/loading-state.cleaner';
import { removeNewsletterBoxes } from '../rules/newsletter-box.cleaner';
import { removePlaceholderText } from '../rules/placeholder-text.cleaner';
import { markPostHeads } from '../rules/post-heading';
import { findPricedGrid } from '../rules/priced-grid';
import { holdsProse } from '../rules/prose-panel';
import { removeRecirculation } from '../rules/recirculation.cleaner';
import { removeResultsBar } from '../rules/results-bar.cleaner';
import { removeRatingSummaries, removeReviewCounts } from '../rules/review-count.cleaner';
import { isSectionHeader } from '../rules/section-header';
import { removeShippingOffers } from '../rules/shipping-offer.cleaner';
import { removeShopFootnotes } from '../rules/shop-footnote.cleaner';
import { removeShopPromises } from '../rules/shop-promise.cleaner';
import { removeSkipLinks } from '../rules/skip-link.cleaner';
import { removeThreadTail } from '../rules/thread-tail.cleaner';
import { removeTopicOverview } from '../rules/topic-overview.cleaner';
import type { PageType } from './page-type.classifier';

/** A pass over the extracted content; it keeps `stats` in step with what it removes. */
export type ContentPass = (root: Element, stats: StatsMap) => void;

export interface PageProfile {
  /**
   * The whole main region is the content (cards, sections, posts, specifications) instead of the
   * best prose node; without it, article mode decides by where the page's prose is.
   */
  region: boolean;
  /** Closed accordion and tab panels to show before extraction. */
  reveal?: (panel: Element) => boolean;
  /** Shown panels join the content but do not make the page an article (folded-prose.ts). */
  foldedBeside?: boolean;
  /** An element chrome removal must look into, never remove whole (nor its wrappers). */
  keep?: (body: Element, stats: StatsMap) => Element | undefined;
  /** Elements of a chrome-named family that are content on this type of page. */
  spare?: Spare;
  /** Copies shown on small screens only ("lg:hidden") beside a large-screen twin go. */
  breakpointTwins?: boolean;
  /** Blocks named like a comment section that are this page's content. */
  ownPosts?: (el: Element) => boolean;
  /** The item grid the main region must hold (the region descent follows text outside links). */
  items?: (body: Element, stats: StatsMap) => Element | undefined;
  /** A block before the chosen content that opens it (a collection's heading and intro). */
  intro?: typeof introBefore;
  /** Passes over the whole page before it is measured and scored. */
  pagePasses?: readonly ((body: Element) => void)[];
  /**
   * Region mode: a clipping utility class ('overflow-hidden') is layout, not hidden chrome. Shop
   * and marketing pages clip their sections and cards; on listings and threads the class is
   * as often on the items' own chrome (a truncated source line, a views counter).
   */
  clippedIsLayout?: boolean;
  /** Passes over the region (region mode only). */
  regionPasses?: readonly ContentPass[];
  /** Passes over the content, whichever mode chose it. */
  passes?: readonly ContentPass[];
}

const gridItems = (body: Element, stats: StatsMap): Element | undefined => listingItems(body, stats);

export const PAGE_PROFILES: Readonly<Record<PageType, PageProfile>> = {
  // articles fold sections and FAQ answers into accordions too
  article: { region: false, reveal: holdsProse },
  // a docs theme's page header holds the title and the opening paragraphs
  documentation: { region: true, spare: isSectionHeader, regionPasses: [removeDocsNavigation] },
  service: {
    region: true,
    clippedIsLayout: true,
    reveal: holdsProse,
    spare: isSectionHeader,
    breakpointTwins: true,
    regionPasses: [removeCallToActionButtons, removeBlogTeasers, removeItemActions, removeRecirculation],
  },
  forum: {
    region: true,
    ownPosts: isThreadPost,
    regionPasses: [removeTopicOverview, cleanForumPosts, removeThreadTail, markPostHeads],
  },
  // a description or specifications sheet opened over the page is the product's text
  product: {
    region: true,
    clippedIsLayout: true,
    spare: isDetailSheet,
    // a review list's filters; a section's 'Shop now' / 'Learn more' button
    regionPasses: [removeFacets, removeCallToActionButtons],
  },
  listing: {
    region: true,
    breakpointTwins: true,
    // a shop's bar of repeated shipping offers and its legal footnotes are small print that
    // can win article mode
    pagePasses: [removeShippingOffers, removeShopFootnotes],
    items: gridItems,
    regionPasses: [removeFacets, removeNewsletterBoxes, removeRecirculation],
    // card controls; the points/age/actions line under each item of a link aggregator; the
    // action link every item repeats ('Read the full story'); the teasers' photo captions
    passes: [removeCardControls, removeItemMetaLines, removeItemActions, removeItemCaptions],
  },
  collection: {
    region: false,
    clippedIsLayout: true,
    // a collection's items survive chrome removal, whatever their wrappers are named
    keep: (body, stats) => findPricedGrid(body, stats)?.parent,
    // a buying guide folded under the items is shown beside them, never instead of them
    reveal: holdsProse,
    foldedBeside: true,
    // the category's heading and intro, in a hero or header block above the items
    intro: introBefore,
    pagePasses: [removeShippingOffers, removeShopFootnotes],
    items: gridItems,
    regionPasses: [removeFacets],
    // controls and action links every card repeats are not what the items are; one bullet per
    // item in markdown
    passes: [
      removeCardControls,
      removeCardBadges,
      removeCardLabels,
      removeReviewCounts,
      removeCardVariants,
      removeResultsBar,
      removeItemMetaLines,
      removeItemActions,
      listCards,
    ],
  },
};

/**
 * Passes on a page that sells one product (it declares a Product, or reads as a product and
 * offers to buy), whatever its profile: a product page may read as a collection.
 */
export const SELLING_PASSES: readonly ContentPass[] = [
  // sections selling other products or stating the shop's terms, by their heading
  trimCrossSellSections,
  // the shop's row of shipping, returns and warranty promises beside the buy button
  removeShopPromises,
  // a template's custom fields printed under their code names ('cat_thumb_Navy: https://…')
  removeFieldDumps,
  // the item's score ('4.4 stars out of 1935 reviews'): the stars are drawn, the line is chrome
  removeRatingSummaries,
];

/** Passes over the content of every page, whatever its type. */
export const EVERY_PAGE_PASSES: readonly ContentPass[] = [
  // template filler ('lorem ipsum')
  removePlaceholderText,
  // what a script-filled slot showed before it loaded ('Loading reviews...')
  removeLoadingStates,
  // what it showed when its request failed ('Something went wrong. Please try again.')
  removeErrorStates,
  // a keyboard user's link past a block ('Skip to search results')
  removeSkipLinks,
  // a shop plugin's price in many currencies ('AED: 549.56', 'GBP: £110.82', ...)
  removeCurrencyLists,
  // a control of the site's account system ('Sign in to add this item to your wishlist')
  removeAccountPrompts,
];

/** The profile of a page whose type is unknown (no declared metadata was read). */
export const DEFAULT_PROFILE: PageProfile = { region: false };
