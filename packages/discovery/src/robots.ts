/**
 * robots.txt per RFC 9309: groups of `User-agent` lines with their rules; our group is the one
 * naming our product token (several such groups merge), else `*`. The longest matching pattern
 * wins, Allow wins a tie; `*` matches any run of characters and a trailing `$` anchors the end.
 */

import { compileRobotsRules, type RobotsRule } from './robots-matcher';

export interface Robots {
  isAllowed(url: string): boolean;
  /** Wildcard rules of our group ignored beyond MAX_WILDCARD_RULES (0 for ordinary files). */
  ignoredRules?: number;
  /** Crawl-delay of our group in ms (capped at 60 s), or null. */
  crawlDelayMs: number | null;
  /** Absolute `Sitemap:` URLs, de-duplicated, in file order. */
  sitemaps: string[];
}

export const MAX_ROBOTS_BYTES = 500 * 1024;
export const MAX_CRAWL_DELAY_MS = 60_000;

interface Group {
  agents: string[];
  rules: RobotsRule[];
  crawlDelayMs: number | null;
}

/** Percent-encode non-ASCII and uppercase existing escapes, so patterns compare like URL paths. */
export function canonicalPath(s: string): string {
  // Fast path (almost every URL): printable ASCII, no lowercase escape: already canonical.
  if (PRINTABLE_ASCII.test(s) && !LOWERCASE_ESCAPE.test(s)) return s;
  let out = '';
  for (const ch of s) {
    const code = ch.codePointAt(0) ?? 0;
    out += code > 0x7e || code < 0x21 ? encodeURIComponent(ch) : ch;
  }
  return out.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
}
const PRINTABLE_ASCII = /^[\x21-\x7e]*$/;
const LOWERCASE_ESCAPE = /%(?:[a-f][0-9a-fA-F]|[0-9A-F][a-f])/;

function toRule(allow: boolean, rawPattern: string): RobotsRule | null {
  const pattern = canonicalPath(rawPattern.trim());
  return pattern ? { allow, pattern } : null; // "Disallow:" (empty) means nothing is disallowed
}

/** "Mozilla/5.0 (compatible; WebContentService/0.1; +https://…)" -> "webcontentservice". */
export function userAgentToken(userAgent: string): string {
  const compatible = /compatible;\s*([A-Za-z_-]+)/.exec(userAgent);
  const token = compatible?.[1] ?? /^([A-Za-z_-]+)/.exec(userAgent.trim())?.[1] ?? userAgent;
  return token.toLowerCase();
}

function agentMatches(agent: string, token: string): boolean {
  // "WebContentService/1.0" in a robots file names the product token "webcontentservice".
  const name = agent.toLowerCase().split('/')[0]?.trim() ?? '';
  return name !== '' && name !== '*' && name === token;
}

export function parseRobots(text: string, robotsUrl: string, userAgentToken: string): Robots {
  const token = userAgentToken.trim().toLowerCase();
  const groups: Group[] = [];
  const sitemaps: string[] = [];
  const seenSitemaps = new Set<string>();
  let current: Group | null = null;
  let lastWasAgent = false;

  const body = text.length > MAX_ROBOTS_BYTES ? text.slice(0, MAX_ROBOTS_BYTES) : text;
  for (const rawLine of body.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/)) {
    const line = rawLine.replace(/#.*$/, '').trim();
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase().replace(/[\s_]/g, '-');
    const value = line.slice(colon + 1).trim();
    switch (key) {
      case 'user-agent':
      case 'useragent':
        if (!current || !lastWasAgent) {
          current = { agents: [], rules: [], crawlDelayMs: null };
          groups.push(current);
        }
        current.agents.push(value);
        lastWasAgent = true;
        break;
      case 'allow':
      case 'disallow': {
        lastWasAgent = false;
        const rule = current ? toRule(key === 'allow', value) : null;
        if (rule) current?.rules.push(rule);
        break;
      }
      case 'crawl-delay': {
        lastWasAgent = false;
        const seconds = Number(value);
        if (current && Number.isFinite(seconds) && seconds >= 0) {
          current.crawlDelayMs = Math.min(MAX_CRAWL_DELAY_MS, Math.round(seconds * 1000));
        }
        break;
      }
      case 'sitemap': {
        // Not part of any group; relative values are resolved against robots.txt.
        try {
          const abs = new URL(value, robotsUrl);
          if ((abs.protocol === 'http:' || abs.protocol === 'https:') && !seenSitemaps.has(abs.href)) {
            seenSitemaps.add(abs.href);
            sitemaps.push(abs.href);
          }
        } catch {
          // unparsable Sitemap line: ignored
        }
        break;
      }
      default:
        // Unknown directives (Host, Clean-param, …) do not end a group of user-agent lines.
        break;
    }
  }

  const own = groups.filter((g) => g.agents.some((a) => agentMatches(a, token)));
  const chosen = own.length > 0 ? own : groups.filter((g) => g.agents.some((a) => a.trim() === '*'));
  const rules = chosen.flatMap((g) => g.rules);
  const delays = chosen.map((g) => g.crawlDelayMs).filter((d): d is number => d !== null);
  const crawlDelayMs = delays.reduce<number | null>((m, d) => (m === null || d > m ? d : m), null);
  const matcher = compileRobotsRules(rules);

  return {
    crawlDelayMs,
    sitemaps,
    ignoredRules: matcher.ignoredWildcardRules,
    isAllowed(url: string): boolean {
      if (matcher.ruleCount === 0) return true; // most sites: no rules for us, skip the URL parse
      let u: URL;
      try {
        u = new URL(url);
      } catch {
        return false;
      }
      if (u.pathname === '/robots.txt') return true;
      return matcher.isAllowed(canonicalPath(`${u.pathname}${u.search}`));
    },
  };
}

/** A Robots that allows everything (no robots.txt, or it could not be read). */
export function allowAllRobots(): Robots {
  return { crawlDelayMs: null, sitemaps: [], isAllowed: () => true };
}
