/**
 * POST /firecrawl/v2/parse: Firecrawl's upload (the SDK's `parse(file, options)`: a form with a
 * `file` part and an `options` JSON part of scrape options) on the native parse. Options translate
 * like a scrape's; those that say how a page is fetched (waitFor, actions, maxAge…) are a 400 but
 * `proxy` "basic" and "auto" (what SDKs send; nothing is fetched, so they change nothing), and so
 * is the `json` format (use `summary` for the model's summary). 1 credit (6 with
 * `summary`), refunded on failure.
 */
import { ValidationError } from '@wcs/errors';
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { parseOptions } from '../contract/parse.request';
import type { GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { readUpload } from '../middleware/upload-body';
import { optionTexts, parseOperation } from '../routes/parse.routes';
import { parseBody } from '../validation/parse-body';
import { refuseFetchOnly, uploadOptions } from '../validation/upload-options';
import { toFirecrawlDocument } from './document.compat';
import { firecrawlScrapeOptionsV2Fields, toNativePageFields } from './scrape-options.compat';

const firecrawlParseOptions = z.strictObject({
  ...firecrawlScrapeOptionsV2Fields,
  filename: z.string().optional(),
});

export function parseCompatRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v2/parse', async (req: Request, res: Response) => {
    const upload = await readUpload(req, deps.settings.maxDocumentBytes);
    // proxy "basic" and "auto" are what every request gets (SDKs send them): nothing is fetched
    // for a file, so they change nothing; any other value is refused as scrape refuses it.
    const { proxy, rest } = takeProxy(optionTexts(upload.fields, req.query));
    const options = parseBody(firecrawlParseOptions, uploadOptions(rest));
    const { filename, ...scrapeOptions } = options;
    const t = toNativePageFields({ ...scrapeOptions, proxy }, { allowJson: false });
    const { formats, proxy: _proxy, ...page } = t.page;
    refuseFetchOnly(page as Record<string, unknown>);
    const body = parseBody(parseOptions, {
      formats,
      ...page,
      ...(filename !== undefined ? { filename } : {}),
    });
    const { requestId, data, creditsUsed } = await parseOperation(deps, authOf(res), upload.file, body, res);
    res.json({
      success: true,
      data: toFirecrawlDocument(data, { wanted: t.wanted, creditsUsed, scrapeId: requestId }),
    });
  });
  return router;
}

/** `proxy`, from the `options` JSON part or a field of its own, apart from the other options. */
function takeProxy(texts: Record<string, string | string[]>): {
  proxy: unknown;
  rest: Record<string, string | string[]>;
} {
  const rest = { ...texts };
  let proxy: unknown;
  if (typeof rest.proxy === 'string') {
    proxy = rest.proxy;
    delete rest.proxy;
  }
  const json = rest.options;
  if (typeof json === 'string') {
    try {
      const parsed: unknown = JSON.parse(json);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed) && 'proxy' in parsed) {
        const { proxy: p, ...others } = parsed as Record<string, unknown>;
        if (proxy !== undefined) {
          throw new ValidationError('proxy: given in options and on its own; give it once', {
            details: { field: 'proxy' },
          });
        }
        proxy = p;
        rest.options = JSON.stringify(others);
      }
    } catch (err) {
      if (err instanceof ValidationError) throw err;
      // Not JSON: uploadOptions reports it.
    }
  }
  return { proxy, rest };
}
