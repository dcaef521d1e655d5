import {
  CAPTCHA_WIDGETS,
  headerVendor,
  headerWall,
  type MarkupRule,
  matches,
  mayMatch,
  WALL_MARKUP,
  WALL_NEEDLES,
} from './block-vendors';
import { hasPasswordField, talksAboutWall, unquoted, WALL_WORDS } from './page-wording';
import { LazyPage, rawH1, rawTitle, rawTitleOf } from './text-measure';
import type { BlockReason, BlockSignal, RawAnswer } from './verdict.types';

/** A vendor's wall markup counts on a page showing at most this many words (their pages say little). */
const WALL_PAGE_WORDS = 400;
/** Markup that also rides along on protected sites' ordinary pages counts only on near-empty ones. */
const SHARED_MARKUP_WORDS = 60;
/** Wall wording in the title or <h1> counts up to this many words on the page. */
const WORDING_PAGE_WORDS = 150;
/**
 * A site's own captcha gate sits inside its header and footer: wall wording in the title or <h1>
 * with a captcha widget counts when the main content (not the page) is this short.
 */
const GATE_MAIN_WORDS = 150;
/** Wall wording anywhere in the text counts only when the page says this little. */
const TINY_PAGE_WORDS = 60;
/** Markup is read in answers up to this size (walls' own pages are a few KB to a few tens of KB)… */
const WALL_BODY = 64_000;
/** …and up to this one with a wall's status. */
const WALL_STATUS_BODY = 192_000;
/** Before conversion, answers larger than this are not read whole for wall wording. */
const TINY_BODY = 24_000;

/** Rules whose markup also appears on ordinary pages of a protected site. */
const SHARED_MARKUP = new Set(['imperva-challenge', 'kasada', 'aws-waf-challenge', 'ddos-guard']);

/** What the caller already knows about the page (judgePage knows it from the DOM). */
export interface PageFacts {
  /** Words the page shows. */
  words?: number;
  /** Words of the main content, when the pipeline extracted it. */
  mainWords?: number;
  /** Words outside links (VerdictInput.pageProseWords). */
  proseWords?: number;
  title?: string | null;
  h1?: string | null;
}

/** A wall and the signals it was recognised by. */
export interface BlockFinding extends BlockSignal {
  signals: string[];
}

/**
 * A bot wall recognised from the raw answer alone (status, headers, the head of the markup), cheap
 * enough to run on every fetch: the scraper's escalation ladder reads it before converting.
 * General signals only (vendor headers and challenge markup), never a list of sites.
 */
export function detectBlock(answer: RawAnswer): BlockSignal | undefined {
  const found = findBlock(answer, {});
  if (!found) return undefined;
  return found.vendor ? { reason: found.reason, vendor: found.vendor } : { reason: found.reason };
}

/** A title or heading longer than this is a sentence about walls, not a wall's status line. */
const STATUS_LINE_WORDS = 14;

const wallWording = (s: string | null | undefined, line = true): BlockReason | undefined => {
  if (!s || (line && s.split(/\s+/).length > STATUS_LINE_WORDS)) return undefined;
  if (line && talksAboutWall(s)) return undefined;
  const said = line ? unquoted(s) : s;
  for (const [reason, re] of WALL_WORDS) if (re.test(said)) return reason;
  return undefined;
};

const finding = (reason: BlockReason, vendor: string | undefined, signals: string[]): BlockFinding =>
  vendor ? { reason, vendor, signals } : { reason, signals };

/** The wall an answer is, if it is one (detectBlock, and judgePage with what the DOM told it). */
export function findBlock(
  answer: RawAnswer,
  facts: PageFacts,
  page: LazyPage = new LazyPage(answer.body, facts.words),
): BlockFinding | undefined {
  const h = answer.headers;
  const status = answer.statusCode;
  const byHeader = headerWall(h);
  if (byHeader) return finding(byHeader.reason, byHeader.vendor, [byHeader.signal]);
  const vendor = headerVendor(h);
  const wallStatus = status === 401 || status === 403 || status === 429 || status === 451 || status === 503;
  // Wall pages are small answers saying little: only those are worth reading the markup of.
  const readMarkup =
    answer.body.length <= (wallStatus ? WALL_STATUS_BODY : WALL_BODY) &&
    (facts.words === undefined || facts.words <= WALL_PAGE_WORDS);
  const body = answer.body;
  const found = readMarkup ? WALL_NEEDLES.find(body) : NONE;
  const marked = found.size > 0 ? markupWall(body, found, page) : undefined;
  if (marked) return finding(marked.reason, marked.vendor ?? vendor, [`markup:${marked.name}`]);
  const statusWall = byStatus(status, vendor);
  const title =
    facts.title !== undefined ? facts.title : answer.prefix ? rawTitleOf(answer.prefix) : rawTitle(body);
  const h1 = facts.h1 !== undefined ? facts.h1 : readMarkup ? rawH1(body) : null;
  const mayBeTiny = facts.words !== undefined || answer.body.length <= TINY_BODY;
  const worded = wordingWall(body, found, title, h1, page, mayBeTiny, facts);
  if (worded) {
    // a 403 saying "verify you are human" is a captcha, not a bare refusal
    const signals = statusWall ? [`status:${status}`, worded.signal] : [worded.signal];
    return finding(worded.reason, worded.vendor ?? vendor, signals);
  }
  return statusWall;
}

const NONE: ReadonlySet<string> = new Set();

/** 401/403/451 refuse, 429 throttles: blocked whatever the page says (a vendor's header names whose). */
function byStatus(status: number, vendor: string | undefined): BlockFinding | undefined {
  const signals = [`status:${status}`];
  if (status === 429) return finding('rate-limited', vendor, signals);
  if (status === 403) return finding('access-denied', vendor, signals);
  if (status === 401 || status === 451) return finding('access-denied', undefined, signals);
  return undefined;
}

function markupWall(body: string, found: ReadonlySet<string>, page: LazyPage): MarkupRule | undefined {
  for (const rule of WALL_MARKUP) {
    if (!mayMatch(rule, found) || !matches(rule, body)) continue;
    const max = SHARED_MARKUP.has(rule.name) ? SHARED_MARKUP_WORDS : WALL_PAGE_WORDS;
    if (page.wordsAtMost(max)) return rule;
  }
  return undefined;
}

/** Generic wall wording (title, <h1>, a tiny page's text), with a captcha widget's vendor when one is there. */
function wordingWall(
  body: string,
  found: ReadonlySet<string>,
  title: string | null,
  h1: string | null,
  page: LazyPage,
  mayBeTiny: boolean,
  facts: PageFacts,
): { reason: BlockReason; vendor?: string; signal: string } | undefined {
  let reason: BlockReason | undefined;
  let where = '';
  // a title or heading about walls ("Access Denied (2019 film)"): the other line and the text are too
  const about = (!!title && talksAboutWall(title)) || (!!h1 && talksAboutWall(h1));
  const headed = about ? undefined : (wallWording(title) ?? wallWording(h1));
  if (headed && page.wordsAtMost(WORDING_PAGE_WORDS)) {
    reason = headed;
    where = wallWording(title) ? 'title' : 'h1';
  } else if (
    (headed === 'captcha' || headed === 'challenge') &&
    facts.mainWords !== undefined &&
    facts.mainWords <= GATE_MAIN_WORDS &&
    (facts.proseWords !== undefined ? facts.proseWords <= WALL_PAGE_WORDS : page.wordsAtMost(WALL_PAGE_WORDS))
  ) {
    // only with the widget itself (below): a product called "Are You a Robot?" has none
    // (the page may be larger than the markup scan reads: look for the widget itself)
    const widget = CAPTCHA_WIDGETS.find((w) => matches(w, body));
    if (widget)
      return {
        reason: 'captcha',
        vendor: widget.vendor,
        signal: `${wallWording(title) ? 'title' : 'h1'}:${widget.name}`,
      };
  }
  // Reading the whole text is for tiny pages only (before conversion: tiny answers).
  if (!reason && !about && mayBeTiny && page.wordsAtMost(TINY_PAGE_WORDS)) {
    reason = wallWording(page.visible(), false);
    where = 'text';
  }
  if (reason === 'captcha' || reason === 'challenge' || (!reason && mayBeTiny && page.wordsAtMost(30))) {
    const widget = CAPTCHA_WIDGETS.find((w) => mayMatch(w, found) && matches(w, body));
    // A captcha on a page saying nothing else (no password: that is a login form) is the wall.
    if (widget && (reason || !hasPasswordField(body)))
      return {
        reason: 'captcha',
        vendor: widget.vendor,
        signal: `${reason ? where : 'alone'}:${widget.name}`,
      };
  }
  return reason ? { reason, signal: `${where}:${reason}` } : undefined;
}
