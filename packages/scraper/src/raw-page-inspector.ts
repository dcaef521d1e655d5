/**
 * The scraper's side of the renderer's `deferText`: a fetched answer's bytes go to a content thread
 * once (moved, not copied), which decodes them, runs the checks the event loop ran before on the
 * decoded string (the `auto` JavaScript check, the fetch ladder's detectBlock) and converts the page
 * in the same task (content.task.ts, RawPageTask). Each answer is inspected once, whoever asks first
 * (the renderer's JavaScript check, the ladder's wall check, the scraper after the ladder).
 */
import type { BlockSignal } from '@wcs/content';
import type { DeferredTextCheck, RenderResult } from '@wcs/renderer';
import type { ContentTask, RawPageResult } from './content.task';
import type { ContentPool } from './content-pool';

/** The page's conversion options, as `documentFromPage` would hand them to the pool. */
export type PageConversion = Omit<
  ContentTask,
  'body' | 'contentType' | 'finalUrl' | 'statusCode' | 'headers'
>;

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
      /** The page is stored in the page cache: return its UTF-8 body. */
      cacheBody: boolean;
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
          cacheBody: this.o.cacheBody,
        },
        this.o.signal,
        undefined,
        this.o.accountId,
      );
      this.seen.set(raw.bytes, found);
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
