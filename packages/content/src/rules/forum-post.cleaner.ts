/**
 * Forum threads: each post keeps its author, its date and its text; the chrome every
 * post repeats goes. That chrome is the same on every board engine: a user panel with the
 * member's statistics ("Joined: Mar 2016", "Posts: 701", key/value pairs under the avatar),
 * action bars ("Reply", "Quote", "Report", "Share", "Like x 3"), vote counters (a bare number
 * beside the post) and tag lists. Only for pages classified as forum threads.
 */
import type { Element } from 'domhandler';
import { removeAllWithStats, type StatsMap } from '../dom/content-stats';
import { findAll, isElement, textOf } from '../dom/dom.util';

/** Labels of member statistics in a post's user panel (phpBB, vBulletin, XenForo, Invision...). */
const STAT_LABEL =
  /^(?:joined|join date|registered|member since|posts|post count|total posts|messages|reaction score|reactions|points|reputation|karma|location|likes received|likes|thanks|trophies|trophy points|solutions|credits|age|gender)$/i;

/** "Label: value" in one short block. */
const STAT_LINE = /^([^:]{2,24}):\s*\S/;
const MAX_STAT = 40;

/** Words of per-post controls and of the badges beside an author (status, "OP"). */
const ACTION =
  /^(?:author|op|online|offline|thread|starter|original|poster|reply|replies|with|quote|multi-?quote|report|share|like|likes|liked|unlike|permalink|link|flag|follow|following|bookmark|save|vote|votes|upvote|downvote|helpful|useful|useless|award|cite|edit|delete|click|to|expand|expand\.\.\.|collapse|show|more|less|copy|x|·|\||#\d+|[+-−]?\d[\d.,]*[km]?)$/i;
/** At least one real control word: a block of numbers alone is a vote count, judged apart. */
const ACTION_WORD = /[a-z]/i;
const MAX_ACTIONS = 60;

/** A counter standing alone as a block: votes, likes, reply counts beside a post. */
const COUNT = /^[+-−]?\d[\d.,]*[km]?$/i;

/** schema.org counters (upvoteCount, commentCount, answerCount): figures about the post, not in it. */
const COUNT_PROP = /Count$/;

/** Avatars: a picture or a letter standing for the member, beside a name that says it in words. */
const AVATAR = /(?:^|[_-])avatars?(?:$|[_-])/i;
/** State flags ("no-avatar", "has-avatar") name the block around the name, not an avatar. */
const AVATAR_FLAG = /^(?:no|has|with|without|show|hide)[-_]avatar/i;
const MAX_AVATAR = 40;

function isAvatar(e: Element, stats: StatsMap): boolean {
  if (text(e, stats) > MAX_AVATAR) return false;
  return nameOf(e)
    .split(/\s+/)
    .some((t) => AVATAR.test(t) && !AVATAR_FLAG.test(t));
}

/** Tag lists under a question or thread: links to other threads, not the thread. */
const TAGS = /(?:^|[\s_-])(?:tags|taglist|tag-?list|post-?tags|post-?taglist|tagged)(?:$|[\s_-])/i;

/** User panels: the member card beside or above each post. */
const USER_PANEL =
  /(?:^|[\s_-])(?:postprofile|userinfo|user-?info|author-?info|poster-?info|postbit-?user|message-?user|user-?details|author-?(?:pane|panel|details|card)|user-?card|post-?author)(?:$|[\s_-])/i;
const MAX_PANEL = 300;

/** Blocks whose content is text, never a control: judged as the post's words. */
const KEEP = new Set(['pre', 'code', 'table', 'td', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p']);
/**
 * Elements that can hold a control or a counter on their own. Not the presentational wrappers
 * (span, b, em...): markup that wraps a word of "Reply with quote" must not make it a control.
 */
const CONTROL_TAGS = new Set([
  'div',
  'li',
  'ul',
  'dd',
  'dt',
  'dl',
  'a',
  'button',
  'footer',
  'header',
  'section',
]);
const BLOCKISH = new Set(['div', 'li', 'dd', 'dt']);

const nameOf = (e: Element): string => `${e.attribs.class ?? ''} ${e.attribs.id ?? ''}`;

const text = (e: Element, stats: StatsMap): number => stats.get(e)?.text ?? 0;

function isStatLine(e: Element, stats: StatsMap): boolean {
  if (!BLOCKISH.has(e.name) || text(e, stats) > MAX_STAT) return false;
  const m = STAT_LINE.exec(textOf(e));
  return m !== null && STAT_LABEL.test(m[1]!.trim());
}

/** A <dl> of member statistics: every term is a statistic's label. */
function isStatList(e: Element): boolean {
  if (e.name !== 'dl') return false;
  const terms = e.children.filter((c): c is Element => isElement(c) && c.name === 'dt');
  return terms.length > 0 && terms.every((t) => STAT_LABEL.test(textOf(t).replace(/:$/, '').trim()));
}

function isControls(e: Element, stats: StatsMap): boolean {
  if (e.attribs.itemprop !== undefined && COUNT_PROP.test(e.attribs.itemprop)) return true;
  if (!CONTROL_TAGS.has(e.name)) return false;
  const n = text(e, stats);
  if (n === 0 || n > MAX_ACTIONS) return false;
  const t = textOf(e);
  if (COUNT.test(t)) return e.name !== 'a';
  const words = t.split(/\s+/);
  return ACTION_WORD.test(t) && words.every((w) => ACTION.test(w));
}

function isTagList(e: Element, stats: StatsMap): boolean {
  const s = stats.get(e);
  return !!s && s.text > 0 && s.link >= 0.8 * s.text && TAGS.test(nameOf(e));
}

/**
 * What of a user panel to keep: the member's name (schema.org name, a "username" class, else the
 * first link with text) and any date. Null when no name is found: then the panel is left alone.
 */
function panelKeeps(panel: Element): Set<Element> | null {
  const named = findAll(
    panel,
    (e) => e.attribs.itemprop === 'name' || /username|user-name|author-name/i.test(e.attribs.class ?? ''),
  );
  const name =
    named.find((e) => textOf(e) !== '') ?? findAll(panel, (e) => e.name === 'a' && textOf(e) !== '')[0];
  if (!name) return null;
  const keep = new Set<Element>([name]);
  for (const d of findAll(panel, (e) => e.name === 'time' || /^date/i.test(e.attribs.itemprop ?? '')))
    keep.add(d);
  return keep;
}

/** Elements of a user panel that hold nothing it keeps. */
function panelChrome(panel: Element, keep: Set<Element>): Element[] {
  const out: Element[] = [];
  const holdsKept = (e: Element): boolean => keep.has(e) || findAll(e, (x) => keep.has(x)).length > 0;
  const visit = (e: Element): void => {
    for (const c of e.children) {
      if (!isElement(c) || keep.has(c)) continue;
      if (holdsKept(c)) visit(c);
      else out.push(c);
    }
  };
  visit(panel);
  return out;
}

function isUserPanel(e: Element, stats: StatsMap): boolean {
  if (text(e, stats) > MAX_PANEL) return false;
  return e.attribs.itemprop === 'author' || USER_PANEL.test(nameOf(e));
}

/** Drop per-post chrome from a forum thread's region. */
export function cleanForumPosts(root: Element, stats: StatsMap): void {
  const gone: Element[] = [];
  const skip = (e: Element): boolean => KEEP.has(e.name);
  for (const panel of findAll(
    root,
    (e) => isUserPanel(e, stats),
    (e) => skip(e) || isUserPanel(e, stats),
  )) {
    const keep = panelKeeps(panel);
    if (keep) gone.push(...panelChrome(panel, keep));
  }
  if (gone.length > 0) removeAllWithStats(gone, stats);
  const chrome = (e: Element): boolean =>
    isAvatar(e, stats) ||
    isStatList(e) ||
    isStatLine(e, stats) ||
    isControls(e, stats) ||
    isTagList(e, stats);
  const more = findAll(root, chrome, (e) => skip(e) || chrome(e));
  if (more.length > 0) removeAllWithStats(more, stats);
}
