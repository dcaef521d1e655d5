/**
 * The `changeTracking` format: a scraped page against the same account's previous scrape of the
 * same URL (its urlKey, the crawl frontier's key) and tag. The status compares hashes of the
 * markdown normalised as the monitors do (markup-only changes are `same`); `git-diff` mode diffs
 * the stored markdown against this one. Every tracked content page becomes the new latest copy;
 * a 404/410 where the previous copy had content is `removed` (and recorded as such). `json` mode
 * asks the extract model for the schema's / prompt's values in the stored copy and in this one.
 */
import { createHash } from 'node:crypto';
import { cleanMarkdownForHash, diffMarkdown } from '@wcs/content';
import { urlKey } from '@wcs/discovery';
import { ModelNotConfiguredError, type ServiceError, toServiceError } from '@wcs/errors';
import type { ChangeTrackingOptions, ChangeTrackingResult, DocumentData, PageOptions } from '@wcs/queues';
import type { PageModel } from './page-model';
import type { ChangeHistoryStore, ChangeRecord, StoredLink } from './page-stores';

/** Who tracks and how: the account, the request's options, and how the page was reached. */
export interface ChangeTrackingRequest {
  history: ChangeHistoryStore;
  accountId: string;
  url: string;
  options?: ChangeTrackingOptions | undefined;
  /** `hidden`: a crawl page reached only through a sitemap. Default `visible`. */
  visibility?: 'visible' | 'hidden';
  /** The extract model, for the `json` mode. */
  model?: PageModel;
  signal?: AbortSignal;
  /** How this visit makes its markdown (history-variant.ts): kept with the copy it stores. */
  variant?: string;
}

/** The page options ask for the `changeTracking` format. */
export function wantsChangeTracking(page: PageOptions | undefined): boolean {
  return page?.formats?.includes('changeTracking') ?? false;
}

export function contentHash(markdown: string): string {
  return createHash('sha256').update(cleanMarkdownForHash(markdown), 'utf8').digest('hex');
}

function keyOf(req: ChangeTrackingRequest): { urlKey: string; tag: string } {
  return { urlKey: urlKey(req.url) ?? req.url, tag: historyTag(req) };
}

function header(headers: Record<string, string> | undefined, name: string): string | null {
  if (!headers) return null;
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
  return null;
}

const hadContent = (r: ChangeRecord | undefined): r is ChangeRecord => r !== undefined && r.statusCode < 400;

/** A copy of the page as the model reads it. */
interface Copy {
  markdown: string;
  title?: string | null | undefined;
}

/**
 * The `json` mode: the schema's / prompt's values in the previous copy (null when there was none
 * with content) and in this one (null when the page is gone). One model call when the two copies
 * are the same content, two (at once) otherwise. A model failure fails the page, as the summary's
 * does: the caller refunds it.
 */
async function valuesBeforeAndAfter(
  req: ChangeTrackingRequest,
  previous: ChangeRecord | undefined,
  current: Copy | undefined,
  same: boolean,
): Promise<ChangeTrackingResult['json']> {
  const o = req.options;
  if (!o?.modes?.includes('json')) return undefined;
  const model = req.model;
  if (!model) {
    throw new ModelNotConfiguredError(
      'The json mode of changeTracking needs the extract model; this worker has none (set EXTRACT_PROVIDER and its key on it)',
    );
  }
  const ask = (copy: Copy) =>
    model.extractValues({
      page: { url: req.url, title: copy.title ?? null, markdown: copy.markdown },
      ...(o.schema !== undefined ? { schema: o.schema } : {}),
      ...(o.prompt !== undefined ? { prompt: o.prompt } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
    });
  const before: Copy | undefined = hadContent(previous)
    ? { markdown: previous.markdown, title: (previous.metadata?.title as string | null | undefined) ?? null }
    : undefined;
  if (same && before) {
    const values = await ask(current ?? before);
    return { previous: values, current: values };
  }
  const [was, now] = await Promise.all([before ? ask(before) : null, current ? ask(current) : null]);
  return { previous: was, current: now };
}

/** What a caller of `trackChanges` has already: the history's row (read once), the page's links. */
export interface TrackExtras {
  /** The history's row as the caller read it (`reusableCopy`); `{ previous: undefined }`: none. */
  known?: { previous: ChangeRecord | undefined };
  /** The page's links as a crawl read them, kept for a recrawl answered 304 (null: not read). */
  links?: StoredLink[] | null;
}

/**
 * Compare the document with the history and set `data.changeTracking`. Only a `content` page
 * (no verdict, or verdict `content`) becomes the new latest copy: a parked page or a login wall is
 * compared but not kept, so the next scrape still compares with the real page.
 */
export async function trackChanges(
  req: ChangeTrackingRequest,
  data: DocumentData,
  page: { statusCode: number; headers?: Record<string, string> },
  extras: TrackExtras = {},
): Promise<void> {
  const { urlKey: key, tag } = keyOf(req);
  const previous = extras.known ? extras.known.previous : await req.history.get(req.accountId, key, tag);
  const markdown = data.markdown ?? '';
  const hash = contentHash(markdown);
  const changeStatus = !hadContent(previous) ? 'new' : previous.contentHash === hash ? 'same' : 'changed';
  const result: ChangeTrackingResult = {
    previousScrapeAt: previous ? previous.scrapedAt.toISOString() : null,
    changeStatus,
    visibility: req.visibility ?? 'visible',
  };
  if (req.options?.modes?.includes('git-diff') && hadContent(previous)) {
    if (changeStatus === 'same') result.diff = { text: '', json: { files: [] } };
    else {
      const d = diffMarkdown(previous.markdown, markdown);
      result.diff = { text: d.text, json: { ...d.json }, ...(d.truncated ? { truncated: true } : {}) };
    }
  }
  const json = await valuesBeforeAndAfter(
    req,
    previous,
    { markdown, title: data.metadata.title },
    changeStatus === 'same',
  );
  if (json) result.json = json;
  data.changeTracking = result;
  const verdict = data.metadata.verdict;
  if (verdict !== undefined && verdict !== 'content') return;
  await req.history.put({
    accountId: req.accountId,
    urlKey: key,
    tag,
    url: req.url,
    markdown,
    contentHash: hash,
    statusCode: page.statusCode,
    etag: header(page.headers, 'etag'),
    lastModified: header(page.headers, 'last-modified'),
    metadata: { ...data.metadata },
    links: extras.links ?? null,
    variant: req.variant ?? '',
    scrapedAt: new Date(),
  });
}

/** At most this many links are kept per page; a page with more keeps none (its recrawl converts it). */
export const MAX_STORED_LINKS = 5_000;

/** The links to keep for a page (`links` of `TrackExtras`): null past MAX_STORED_LINKS. */
export function storedLinks(links: ReadonlyArray<StoredLink>): StoredLink[] | null {
  if (links.length > MAX_STORED_LINKS) return null;
  return links.map((l) => ({ url: l.url, key: l.key, nofollow: l.nofollow }));
}

/**
 * The account's latest copy of the page when a conditional visit may reuse it: it had content, the
 * site gave validators (ETag / Last-Modified) with it, and it was made the way this visit makes
 * its markdown (same variant: options, engine, device). The caller asks only for formats this copy
 * holds (markdown).
 */
export async function reusableCopy(req: ChangeTrackingRequest): Promise<ChangeRecord | undefined> {
  const { urlKey: key, tag } = keyOf(req);
  return usableCopy(req, await req.history.get(req.accountId, key, tag));
}

/** `reusableCopy`'s rule for a row the caller read itself (several at once: `history.getMany`). */
export function usableCopy(
  req: Pick<ChangeTrackingRequest, 'variant'>,
  previous: ChangeRecord | undefined,
): ChangeRecord | undefined {
  if (!hadContent(previous) || (!previous.etag && !previous.lastModified)) return undefined;
  if (!req.variant || previous.variant !== req.variant) return undefined;
  return previous;
}

/** The history's tag of a request ('' without one): the key `history.getMany` reads under. */
export function historyTag(req: Pick<ChangeTrackingRequest, 'options'>): string {
  return req.options?.tag ?? '';
}

/**
 * The site answered 304 to a visit conditional on `previous`: the stored document is the page
 * (`same`, nothing downloaded or converted); the history's copy is refreshed with the validators
 * the 304 sent. `metadata.revalidatedBy: "not-modified"` says so.
 */
export async function reuseOnNotModified(
  req: ChangeTrackingRequest,
  previous: ChangeRecord,
  validators: { etag?: string; lastModified?: string },
): Promise<DocumentData> {
  // Only the time and validators move: the stored document is this visit's.
  return reuseStored(req, previous, 'not-modified', {
    etag: validators.etag ?? null,
    lastModified: validators.lastModified ?? null,
    scrapedAt: new Date(),
  });
}

/**
 * A crawl that trusts the sitemap's lastmod (trustSitemapLastmod) did not ask for the page: its
 * lastmod is not after `previous` was stored, so the stored document is the page (`same`,
 * `metadata.revalidatedBy: "sitemap-lastmod"`). The copy's time moves on to `vouchedAt` (when the
 * sitemap was at the latest read: the crawl's creation), never to now — a change made after the
 * sitemap was read must not hide behind it — and never backwards; its validators stay.
 */
export async function reuseOnSitemapLastmod(
  req: ChangeTrackingRequest,
  previous: ChangeRecord,
  vouchedAt: Date | undefined,
): Promise<DocumentData> {
  const later = vouchedAt !== undefined && vouchedAt.getTime() > previous.scrapedAt.getTime();
  return reuseStored(
    req,
    previous,
    'sitemap-lastmod',
    later ? { etag: null, lastModified: null, scrapedAt: vouchedAt } : undefined,
  );
}

/** The stored copy as this visit's document (`same`); `touch`: how its history row moves on. */
async function reuseStored(
  req: ChangeTrackingRequest,
  previous: ChangeRecord,
  revalidatedBy: NonNullable<DocumentData['metadata']['revalidatedBy']>,
  touch: { etag: string | null; lastModified: string | null; scrapedAt: Date } | undefined,
): Promise<DocumentData> {
  const changeTracking: ChangeTrackingResult = {
    previousScrapeAt: previous.scrapedAt.toISOString(),
    changeStatus: 'same',
    visibility: req.visibility ?? 'visible',
  };
  if (req.options?.modes?.includes('git-diff')) changeTracking.diff = { text: '', json: { files: [] } };
  const json = await valuesBeforeAndAfter(req, previous, undefined, true);
  if (json) changeTracking.json = json;
  if (touch) await req.history.touch(previous, previous.scrapedAt, touch);
  // The copy's cache fields described the visit that stored it, not this one.
  const {
    cacheState: _state,
    cachedAt: _at,
    revalidatedBy: _by,
    ...stored
  } = (previous.metadata ?? {}) as Partial<DocumentData['metadata']>;
  return {
    markdown: previous.markdown,
    changeTracking,
    metadata: {
      ...stored,
      title: stored.title ?? null,
      sourceURL: req.url,
      statusCode: 200,
      revalidatedBy,
    } as DocumentData['metadata'],
  };
}

/** The target answered 404 or 410 itself (not a soft 404 judged from the page). */
export function goneStatus(err: unknown): number | undefined {
  const se: ServiceError = toServiceError(err);
  if (se.code !== 'TARGET_HTTP_ERROR') return undefined;
  const details = se.details as { statusCode?: unknown; soft?: unknown } | undefined;
  if (details?.soft === true) return undefined;
  const status = details?.statusCode;
  return status === 404 || status === 410 ? status : undefined;
}

/**
 * A 404/410 on a tracked page: when the previous copy had content, the page is `removed` (the
 * document says so, and the history records it); otherwise undefined, and the scrape fails as any
 * 404 does (there is nothing to compare with).
 */
export async function trackRemoval(
  req: ChangeTrackingRequest,
  statusCode: number,
): Promise<DocumentData | undefined> {
  const { urlKey: key, tag } = keyOf(req);
  const previous = await req.history.get(req.accountId, key, tag);
  if (!hadContent(previous)) return undefined;
  const changeTracking: ChangeTrackingResult = {
    previousScrapeAt: previous.scrapedAt.toISOString(),
    changeStatus: 'removed',
    visibility: req.visibility ?? 'visible',
  };
  if (req.options?.modes?.includes('git-diff')) {
    const d = diffMarkdown(previous.markdown, '');
    changeTracking.diff = { text: d.text, json: { ...d.json }, ...(d.truncated ? { truncated: true } : {}) };
  }
  const json = await valuesBeforeAndAfter(req, previous, undefined, false);
  if (json) changeTracking.json = json;
  await req.history.put({
    accountId: req.accountId,
    urlKey: key,
    tag,
    url: req.url,
    markdown: '',
    contentHash: contentHash(''),
    statusCode,
    etag: null,
    lastModified: null,
    variant: req.variant ?? '',
    scrapedAt: new Date(),
  });
  return {
    markdown: '',
    changeTracking,
    metadata: { title: null, statusCode, sourceURL: req.url },
  };
}
