/**
 * POST /firecrawl/v2/parse: Firecrawl's upload (the SDK's `parse(file, options)`: a form with a
 * `file` part and an `options` JSON part of scrape options) on the native parse. Options translate
 * like a scrape's; those that say how a page is fetched (waitFor, actions, proxy, maxAge…) are a
 * 400, and so is the `json` format (use `summary` for the model's summary). 1 credit (6 with
 * `summary`), refunded on failure.
 */
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
    const options = parseBody(firecrawlParseOptions, uploadOptions(optionTexts(upload.fields, req.query)));
    const { filename, ...scrapeOptions } = options;
    const t = toNativePageFields(scrapeOptions, { allowJson: false });
    const { formats, ...page } = t.page;
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
