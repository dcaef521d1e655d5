/**
 * Error states: "There was an error retrieving your Wish Lists. Please try again.", "Oops! Something
 * went wrong. Please try again later." A script-filled slot whose request failed when the page was
 * saved shows its error instead; the message is the widget's, never what the page says.
 */
import type { Element } from 'domhandler';
import type { StatsMap } from '../dom/content-stats';
import { removeSlotLabels } from './loading-state.cleaner';

/**
 * The whole text of the block: a failure (an error, a problem, something went wrong, could not,
 * unable, failed) and then the request to try again, which a sentence about errors rarely ends on.
 */
const FAILED =
  /^(?=.*\b(?:errors?|problem|went wrong|couldn'?t|could not|can'?t|cannot|unable|failed)\b).{0,100}\bplease try again(?: later)?[.!]?$/i;
/** An error label is a line or two, not a paragraph of troubleshooting. */
const MAX_TEXT = 120;

/** Remove the error messages of failed page widgets from the content. */
export const removeErrorStates = (root: Element, stats: StatsMap): void =>
  removeSlotLabels(root, stats, FAILED, MAX_TEXT);
