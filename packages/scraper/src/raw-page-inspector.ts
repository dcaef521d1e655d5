/**
 * The scraper's side of the renderer's `deferText`: a fetched answer's bytes go to a content thread
 * once (moved, not copied), which decodes them, runs the checks the event loop ran before on the
 * decoded string (the `auto` JavaScript check, the fetch ladder's detectBlock) and converts the page
 * in the same task (content.task.ts, RawPageTask). Each answer is inspected once, whoever asks first
 * (the renderer's JavaScript check, the ladder's wall check, the scraper after the ladder).
 */

import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { BlockSignal } from '@wcs/content';
import type { DeferredTextCheck, RenderResult } from '@wcs/renderer';
import type { ContentTask, RawPageResult } from './content.task';
import type { ContentPool } from './content-pool';
import type { CompressedBody } from './page-body-codec';

/** The page's conversion options, as `documentFromPage` would hand them to the pool. */
export type PageConversion = Omit<
  ContentTask,
  'body' | 'contentType' | 'finalUrl' | 'statusCode' | 'headers'
>;

/** Told of an answer's body for the page cache as soon as its thread compressed it (see `cacheBody`). */
export type CachedBodyHook = (page: RenderResult, body: Promise<CompressedBody | undefined>) => void;

export class RawPageInspector {
  private readonly seen = new WeakMap<Buffer, Promise<RawPageResult>>();
  /**
   * When the latest answer's bytes were handed to a thread (performance.now()): there the fetch
   * ends and the content work begins, for the scrape's Server-Timing stages.
   */
  handedAt: number | undefined;

  constructor(
    private readonly pool: ContentPool,
    private readonly o: {
      conversion: PageConversion;
      /**
       * The page is stored in the page cache: told of each answer's body (compressed UTF-8) as
       * soon as its thread has it, before the conversion ends — so its write overlaps the
       * conversion. The promise resolves undefined when the thread made none (a wall, a page that
       * needs JavaScript, an answer that is not 2xx, a failure); it never rejects.
       */
      cacheBody?: CachedBodyHook;
      signal?: AbortSignal;
      accountId?: string;
    },
  ) {}

  /** What the thread found for this undecoded answer (`page.raw`), computed once. */
  inspect(page: RenderResult, jsCheck = false): Promise<RawPageResult> {
    const raw = page.raw;
    if (!raw) return Promise.reject(new Error('RawPageInspector: the page was decoded already'));
    let found = this.seen.get(raw.bytes);
    if (!found) {
      this.handedAt = performance.now();
      const channel = this.o.cacheBody ? new MessageChannel() : undefined;
      const { cacheBody } = this.o;
      found = this.pool.inspect(
        {
          ...this.o.conversion,
          body: '',
          raw: raw.bytes,
          ...(raw.contentTypeHeader ? { contentTypeHeader: raw.contentTypeHeader } : {}),
          contentType: page.contentType,
          finalUrl: page.finalUrl,
          statusCode: page.statusCode,
          headers: page.headers,
          jsCheck,
          cacheBody: cacheBody !== undefined,
          ...(channel ? { cachedPort: channel.port2 } : {}),
        },
        this.o.signal,
        undefined,
        this.o.accountId,
      );
      this.seen.set(raw.bytes, found);
      if (channel) cacheBody?.(page, cachedBody(channel.port1, found));
    }
    return found;
  }

  /** The renderer's `deferText`. */
  readonly deferText = async (page: RenderResult): Promise<DeferredTextCheck> => {
    const found = await this.inspect(page, true);
    return found.kind === 'needs-javascript'
      ? { needsJavaScript: true, text: found.text }
      : { needsJavaScript: false };
  };

  /** The fetch ladder's `judgeRaw`. */
  readonly judgeRaw = async (page: RenderResult): Promise<BlockSignal | undefined> => {
    const found = await this.inspect(page);
    return found.kind === 'blocked' ? found.block : undefined;
  };
}

/**
 * The body the thread sends on `port` (content.task.ts, `cachedPort`). Messages of two channels
 * arrive in no set order: a result that says `cachedSent` keeps the wait for the message; any
 * other end of the task means none comes.
 */
function cachedBody(port: MessagePort, found: Promise<RawPageResult>): Promise<CompressedBody | undefined> {
  return new Promise((resolve) => {
    const done = (body: CompressedBody | undefined) => {
      port.close();
      resolve(body);
    };
    port.once('message', (body: CompressedBody) => done(body));
    found.then(
      (f) => {
        if (!(f.kind === 'page' && f.cachedSent)) done(f.kind === 'page' ? f.cached : undefined);
      },
      () => done(undefined),
    );
  });
}
