import { findBlock } from './block-signals';
import { errorPageMarkup } from './error-page-markup';
import {
  ERROR_CONTEXT,
  hasAccountField,
  hasParkingMarkup,
  hasPasswordField,
  NOT_FOUND,
  NOT_FOUND_WEAK,
  PARKED_WORDS,
  READ_WALL,
  SIGN_IN,
  SIGN_IN_LINE,
  serverErrorStatus,
  talksAbout,
  unquoted,
} from './page-wording';
import { countWords, LazyPage } from './text-measure';
import type { RawAnswer, VerdictResult } from './verdict.types';

/** What the pipeline knows about a converted page when it judges it. */
export interface VerdictInput extends RawAnswer {
  title: string | null;
  /** Words of the main content the pipeline extracted (absent when no content format was asked for). */
  mainWords?: number;
  /** Words of the whole page's visible text. */
  pageWords: number;
  /**
   * Of which outside links: a site's header, menus and footer are mostly links, so this is what
   * the size limits below read when the pipeline knows it (else pageWords).
   */
  pageProseWords?: number;
  /** The page's first <h1>, when the pipeline read one. */
  h1?: string | null;
  /** Images in the main content: a picture page with no words is not empty. */
  mainImages?: number;
  /** What the body is: JSON bodies are judged on walls only, plain text on walls and its words. */
  kind?: 'html' | 'text' | 'json';
}

/** A soft 404 / error page says so in its title or heading and shows little else. */
const NOT_FOUND_MAIN_WORDS = 150;
const ERROR_MAIN_WORDS = 100;
const ERROR_PAGE_WORDS = 300;
/** Parking landers list "related searches"; the rest of them is short. */
const PARKED_PAGE_WORDS = 400;
const PARKED_MAIN_WORDS = 250;
/** Landers are small answers; a larger one is a site, whatever its scripts say. */
const PARKED_BODY = 128_000;
/** A login wall is the form (which the extractor drops) and a few lines around it. */
const LOGIN_PAGE_WORDS = 200;
const LOGIN_MAIN_WORDS = 120;
/** The password field is looked for in this much of the markup. */
const LOGIN_BODY = 256_000;
/** A CDN's or framework's own error page explains itself, but not at article length. */
const ERROR_MARKUP_PAGE_WORDS = 300;
/** A sign-in line: "Sign in to your account", not a headline that starts with "Login". */
const SIGN_IN_LINE_WORDS = 6;
/** A registration wall leaves a teaser: a paragraph or two of the article, and chrome around it. */
const READ_WALL_MAIN_WORDS = 120;
const READ_WALL_PAGE_WORDS = 400;
/** A page this short is read whole for the wording that otherwise must be in its title or <h1>. */
const TINY_PAGE_WORDS = 60;
/** An empty page's markup shows at most this many words (a footer, a "loading" line). */
const EMPTY_MARKUP_WORDS = 150;
/** A title or heading longer than this is a sentence about something, not a status line. */
const STATUS_LINE_WORDS = 14;

const short = (s: string | null | undefined): s is string =>
  !!s && s.trim() !== '' && s.trim().split(/\s+/).length <= STATUS_LINE_WORDS;

const saysNotFound = (s: string | null | undefined): boolean => {
  if (!short(s) || talksAbout(s)) return false;
  const said = unquoted(s);
  return NOT_FOUND.test(said) || NOT_FOUND_WEAK.test(said);
};

const signInLine = (s: string | null | undefined): boolean =>
  !!s && s.trim().split(/\s+/).length <= SIGN_IN_LINE_WORDS && SIGN_IN_LINE.test(s);

/** The 5xx status a line shows ("502 Bad Gateway", "Internal Server Error"), not a bare number. */
function shownError(s: string | null | undefined): number | undefined {
  if (!short(s) || talksAbout(s)) return undefined;
  const said = unquoted(s);
  const status = serverErrorStatus(said);
  if (status === undefined) return undefined;
  const words = said.replace(/\b5\d\d\b/g, ' ');
  return ERROR_CONTEXT.test(words) || serverErrorStatus(words) !== undefined ? status : undefined;
}

const result = (verdict: VerdictResult['verdict'], signals: string[], shownStatus?: number): VerdictResult =>
  shownStatus === undefined ? { verdict, signals } : { verdict, shownStatus, signals };

/** The verdict on one page (verdict.types.ts). */
export function judgePage(input: VerdictInput): VerdictResult {
  const page = new LazyPage(input.body, input.pageWords);
  const prose = input.pageProseWords ?? input.pageWords;
  const facts = { words: input.pageWords, proseWords: prose, title: input.title, h1: input.h1 ?? null };
  const block = findBlock(
    input,
    input.mainWords === undefined ? facts : { ...facts, mainWords: input.mainWords },
    page,
  );
  if (block) {
    const { signals, ...wall } = block;
    return { verdict: 'blocked', block: wall, signals };
  }
  // Other statuses are the caller's to read (metadata.statusCode); only a 2xx can pose as content.
  if (input.statusCode < 200 || input.statusCode >= 300 || input.kind === 'json')
    return result('content', []);
  const main = input.mainWords ?? input.pageWords;
  const tiny = input.pageWords <= TINY_PAGE_WORDS;
  const html = input.kind !== 'text';
  const title = html ? input.title : null;
  const h1 = html ? (input.h1 ?? null) : null;

  // a title about a status ("Error 404 (album)", "How do I fix…?"): its heading and text are too
  const about = !!title && talksAbout(title);
  const notFound = about ? undefined : saysNotFound(title) ? 'title' : saysNotFound(h1) ? 'h1' : undefined;
  if (notFound && main <= NOT_FOUND_MAIN_WORDS) return result('soft-404', [`${notFound}:not-found`], 404);
  if (tiny && !about && NOT_FOUND.test(page.visible())) return result('soft-404', ['text:not-found'], 404);

  if (!about && main <= ERROR_MAIN_WORDS && prose <= ERROR_PAGE_WORDS) {
    const inTitle = shownError(title);
    const shown = inTitle ?? shownError(h1);
    if (shown) return result('error-page', [`${inTitle ? 'title' : 'h1'}:server-error`], shown);
  }
  if (tiny && !about) {
    const shown = shownError(page.visible().slice(0, 200));
    if (shown) return result('error-page', ['text:server-error'], shown);
  }
  if (html && input.pageWords <= ERROR_MARKUP_PAGE_WORDS) {
    const marked = errorPageMarkup(input.body);
    if (marked?.status === 404) return result('soft-404', [`markup:${marked.name}`], 404);
    if (marked && marked.status >= 500) return result('error-page', [`markup:${marked.name}`], marked.status);
  }

  if (!html) return main === 0 ? result('empty', ['no-text']) : result('content', []);

  if (input.pageWords <= PARKED_PAGE_WORDS && main <= PARKED_MAIN_WORDS) {
    const signals: string[] = [];
    if (input.body.length <= PARKED_BODY && hasParkingMarkup(input.body)) signals.push('markup:parking');
    if ((title && PARKED_WORDS.test(title)) || (h1 && PARKED_WORDS.test(h1))) signals.push('title:for-sale');
    else if (input.pageWords <= LOGIN_PAGE_WORDS && PARKED_WORDS.test(page.visible()))
      signals.push('text:for-sale');
    if (signals.length > 0) return result('parked', signals);
  }

  if (prose <= LOGIN_PAGE_WORDS && main <= LOGIN_MAIN_WORDS) {
    const head = input.body.slice(0, LOGIN_BODY);
    if (hasPasswordField(head)) {
      const where = (title && SIGN_IN.test(title)) || (h1 && SIGN_IN.test(h1)) ? 'title' : undefined;
      if (where || SIGN_IN.test(page.visible()))
        return result('login-wall', ['password-field', `${where ?? 'text'}:sign-in`]);
    }
    // two-step sign-in (the account first, the password on the next step)
    if ((signInLine(title) || signInLine(h1)) && hasAccountField(head))
      return result('login-wall', ['account-field', 'title:sign-in']);
  }
  // an article cut off under "Sign in to continue reading"
  if (main <= READ_WALL_MAIN_WORDS && prose <= READ_WALL_PAGE_WORDS && READ_WALL.test(page.visible()))
    return result('login-wall', ['text:read-wall']);

  // Nothing extracted is not enough: the markup must show next to nothing too (an extraction
  // miss on a readable page is content, not an empty page).
  if (main === 0 && (input.mainImages ?? 0) === 0 && countWords(page.visible()) <= EMPTY_MARKUP_WORDS)
    return result('empty', ['no-text']);
  return result('content', []);
}
