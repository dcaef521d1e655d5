/**
 * Account prompts: "Sign in to add this item to your wishlist", "Log in to reply", "Please sign
 * in to provide feedback", "Sign In or Register to comment." A line of its own that asks the
 * reader to sign in before doing something is a control of the site's account system, on any
 * page; the thing behind it (the wishlist, the reply box) is not on the page. A step of an
 * instruction ("Log in to your console and click Create") speaks of the reader's own account
 * somewhere else and stays, and so does a step in a numbered list. A gate's notice ("Please sign
 * in to read this report", "Log in to view the full thread") stays too: it tells the reader
 * that the page holds more than they were given.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { hasAncestor } from '../dom/dom.util';
import { findShortLines } from '../dom/short-line';

const PROMPT =
  /^(?:please\s+)?(?:sign|log)\s?in(?:\s+or\s+(?:register|sign\s?up|create\s+an\s+account))?\s+to\s+(?!your\b|(?:read|view|see|access|continue|watch|listen|download|unlock|open)\b)[^.!?]{2,100}[.!]?$/iu;
/** A prompt is one short sentence. */
const MAX_TEXT = 120;

/** Lists and tables hold several lines: a prompt is one. */
const SEVERAL_LINES = new Set(['ul', 'ol', 'dl', 'table', 'tbody', 'tr']);

const isPrompt = (text: string, e: Element): boolean =>
  !SEVERAL_LINES.has(e.name) && PROMPT.test(text.replace(/\s+/g, ' ')) && !hasAncestor(e, 'ol');

export function removeAccountPrompts(root: Element, stats: StatsMap): void {
  const found = findShortLines(root, stats, MAX_TEXT, isPrompt);
  if (found.length > 0) removeAllWithStats(found, stats);
}
