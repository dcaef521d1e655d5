/**
 * Service and product pages (landing, product, company pages): the buttons of their sections ("Get started",
 * "Book a demo", "Learn more", "Start free trial") are calls to action, not what the page says.
 * A button or link counts when its whole text is such an imperative and it stands on a line of
 * its own (with other buttons at most): a link inside a sentence is part of the sentence.
 */
import type { Element } from 'domhandler';
import { isBlockName, removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, textOf } from '../dom/dom.util';

const CTA =
  /^(?:get (?:started|in touch|a (?:demo|quote|free \w+)|(?:your )?free \w+|the app|it now|(?:a |the |our )?(?:product brief|guide|report|ebook|e-book|whitepaper|salary guide))|start (?:(?:a |your )?free(?: \w+)?|now|today|here|building|for free|(?:your )?trial|sharing|recording|deploying|selling|learning|planning)|try (?:it |\w+ )?(?:for )?(?:free|now|today)|book (?:a |an |your )?\w+(?: \w+)?|book now|schedule (?:a |your )?\w+|request (?:a |an )?\w+|contact (?:us|sales|our team)|talk to (?:sales|us|an expert|our team)|sign ?up(?: now| free| for free)?|register(?: now| today)?|enrol+(?: now)?|join (?:now|free|today|us)|download(?: now| (?:the|our|it) \w+| for free)?|learn more|read more|know more|find out more|discover more|see (?:all|more|how|it in action|pricing|plans)\b.*|explore(?: \S+){0,3}|view (?:all|more|details|pricing|plans|demo|live demo)|watch (?:the )?(?:demo|video|introduction|now)|buy now|shop now|order now|call (?:us|now)|apply now|secure your spot|let'?s talk|take a (?:self-guided )?tour|(?:see|check) (?:our )?pricing)\b/i;
/** A button's text is a few words. */
const MAX_CHARS = 50;
const MAX_WORDS = 6;
/** Text around the buttons on their line (a separator, an arrow, "or"). */
const SLACK = 4;

const isButton = (e: Element): boolean =>
  e.name === 'a' || e.name === 'button' || e.attribs.role?.toLowerCase() === 'button';

function isCta(e: Element): boolean {
  if (!isButton(e)) return false;
  const t = textOf(e);
  return t.length > 0 && t.length <= MAX_CHARS && t.split(' ').length <= MAX_WORDS && CTA.test(t);
}

function blockOf(e: Element): Element | null {
  for (let p = e.parent; p; p = p.parent) if (isElement(p) && isBlockName(p.name)) return p;
  return null;
}

export function removeCallToActionButtons(root: Element, stats: StatsMap): void {
  const buttons = findAll(root, isCta, isButton);
  if (buttons.length === 0) return;
  // what the buttons say, per block holding them
  const said = new Map<Element, number>();
  for (const b of buttons) {
    const block = blockOf(b);
    if (block) said.set(block, (said.get(block) ?? 0) + (stats.get(b)?.text ?? 0));
  }
  const drop = buttons.filter((b) => {
    const block = blockOf(b);
    if (!block) return false;
    // measured with the stats: a big block holding a button costs nothing to check
    return (stats.get(block)?.text ?? 0) - (said.get(block) ?? 0) <= SLACK;
  });
  if (drop.length > 0) removeAllWithStats(drop, stats);
}
