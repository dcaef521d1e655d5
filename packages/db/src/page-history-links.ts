/**
 * How a tracked page's links are stored in `page_history.links`. A link is its key alone when it is
 * also its URL and is followed — 97 % of a real article's ~95 links — and `[key, url | null,
 * nofollow]` otherwise (null: the URL is the key). As objects (`{url, key, nofollow}`, how rows
 * were written before, and are still read) a real page's links took 14.8 KB of JSON; this way 6.3
 * KB, read back by every recrawled page's start.
 */

/** One link of a tracked page, as a crawl read it (structurally @wcs/scraper's StoredLink). */
export interface PageHistoryLink {
  url: string;
  key: string;
  nofollow: boolean;
}

type StoredLink = string | [key: string, url: string | null, nofollow: boolean];

/** The links as the column stores them. */
export function storedLinks(links: PageHistoryLink[]): StoredLink[] {
  return links.map((l) =>
    l.url === l.key && !l.nofollow ? l.key : [l.key, l.url === l.key ? null : l.url, l.nofollow],
  );
}

/** The links of a column, either way they were stored; null when unread or malformed. */
export function linksOf(value: unknown): PageHistoryLink[] | null {
  if (!Array.isArray(value)) return null;
  const links: PageHistoryLink[] = [];
  for (const l of value) {
    const link = linkOf(l);
    if (!link) return null;
    links.push(link);
  }
  return links;
}

function linkOf(l: unknown): PageHistoryLink | null {
  if (typeof l === 'string') return { url: l, key: l, nofollow: false };
  if (Array.isArray(l)) {
    const [key, url, nofollow] = l as unknown[];
    if (typeof key !== 'string' || (url !== null && typeof url !== 'string')) return null;
    return { url: url ?? key, key, nofollow: nofollow === true };
  }
  if (!l || typeof l !== 'object') return null;
  const { url, key, nofollow } = l as Record<string, unknown>;
  if (typeof url !== 'string' || typeof key !== 'string') return null;
  return { url, key, nofollow: nofollow === true };
}
