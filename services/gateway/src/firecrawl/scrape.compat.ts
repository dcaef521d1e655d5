/**
 * POST /firecrawl/v2/scrape and /firecrawl/v1/scrape: the native scrape, and for a
 * `json` format the native extract on the same URL and page options. Billing is the native one:
 * 1 credit for the scrape (6 with the `summary` format: pageCredits of @wcs/queues) plus the extract's own cost
 * (5) when a `json` format is asked for; the
 * extract runs only after the scrape succeeded, and if it fails the request fails (the scrape's
 * credit stays charged: that page was fetched).
 */
import { type Request, type Response, Router } from 'express';
import { z } from 'zod';
import { extractBody } from '../contract/extract.request';
import { scrapeBody } from '../contract/scrape.request';
import type { AuthContext, GatewayDeps } from '../deps';
import { authOf } from '../middleware/auth.middleware';
import { EXTRACT_COST, prepareExtract, runExtract } from '../routes/extract.routes';
import { scrapeOperation } from '../routes/scrape.routes';
import { requireModel } from '../validation/model-check';
import { parseBody } from '../validation/parse-body';
import { type FirecrawlDocument, toFirecrawlDocument } from './document.compat';
import { parseAs, renameFields } from './field-names.compat';
import {
  FIRECRAWL_V2_DEFAULT_MAX_AGE_MS,
  firecrawlScrapeOptionsV1Fields,
  firecrawlScrapeOptionsV2Fields,
  type TranslatedScrapeOptions,
  toNativePageFields,
  toNativePageFieldsV1,
} from './scrape-options.compat';

const url = z.string({ error: 'is required and must be a string' });
export const firecrawlScrapeBodyV2 = z.strictObject({ url, ...firecrawlScrapeOptionsV2Fields });
export const firecrawlScrapeBodyV1 = z.strictObject({ url, ...firecrawlScrapeOptionsV1Fields });

/**
 * One Firecrawl scrape on the native operations: the scrape, then the `json` extraction if asked.
 * Every check (URL, address policy, page options, the extract's schema) runs before any charge.
 */
export async function firecrawlScrape(
  deps: GatewayDeps,
  auth: AuthContext,
  target: string,
  t: TranslatedScrapeOptions,
  caller?: Response,
): Promise<FirecrawlDocument> {
  const native = parseBody(scrapeBody, { url: target, ...t.page });
  const prepared = t.json ? prepareJson(auth, target, t) : undefined;
  // The json format's extract comes after the scrape: refused before the scrape is charged.
  if (prepared) requireModel(deps.deployment, `The ${t.json?.field ?? 'json'} format`);
  const { requestId, data, creditsUsed } = await scrapeOperation(deps, auth, native, caller);
  if (!prepared) return toFirecrawlDocument(data, { wanted: t.wanted, creditsUsed, scrapeId: requestId });
  const extracted = await runExtract(deps, prepared, caller);
  return toFirecrawlDocument(data, {
    wanted: t.wanted,
    json: extracted.data,
    creditsUsed: creditsUsed + EXTRACT_COST,
    scrapeId: requestId,
  });
}

/** The native extract request of a `json` format: same URL and the page options extract takes. */
function prepareJson(auth: AuthContext, target: string, t: TranslatedScrapeOptions) {
  const json = t.json as NonNullable<TranslatedScrapeOptions['json']>;
  const p = t.page;
  // Extract keeps no screenshots: those actions only matter to the scrape's document.
  const actions = Array.isArray(p.actions)
    ? p.actions.filter((a) => (a as { type?: unknown } | null)?.type !== 'screenshot')
    : undefined;
  const body = parseAs(
    extractBody,
    {
      url: target,
      ...(json.schema ? { schema: json.schema } : {}),
      ...(json.prompt ? { prompt: json.prompt } : {}),
      ...(p.waitFor !== undefined ? { waitFor: p.waitFor } : {}),
      ...(p.headers !== undefined ? { headers: p.headers } : {}),
      ...(actions && actions.length > 0 ? { actions } : {}),
      ...(p.mobile !== undefined ? { mobile: p.mobile } : {}),
      ...(p.proxy !== undefined ? { proxy: p.proxy } : {}),
      ...(p.location !== undefined ? { location: p.location } : {}),
      ...(p.includeTags !== undefined ? { includeTags: p.includeTags } : {}),
      ...(p.excludeTags !== undefined ? { excludeTags: p.excludeTags } : {}),
    },
    { schema: `${json.field}.schema`, prompt: `${json.field}.prompt` },
  );
  try {
    return prepareExtract(auth, body);
  } catch (err) {
    throw renameFields(err, { schema: `${json.field}.schema` });
  }
}

/** Firecrawl scrape routes (v1 and v2): `{ success: true, data: Document }`. */
export function scrapeCompatRoutes(deps: GatewayDeps): Router {
  const router = Router();
  router.post('/v2/scrape', async (req: Request, res: Response) => {
    const body = parseBody(firecrawlScrapeBodyV2, req.body);
    const { url: target, ...options } = body;
    const doc = await firecrawlScrape(
      deps,
      authOf(res),
      target,
      toNativePageFields(options, { defaultMaxAge: FIRECRAWL_V2_DEFAULT_MAX_AGE_MS }),
      res,
    );
    // The v2 SDK returns `data` spread; LangChain's FireCrawlLoader (1.1.x) calls it through the
    // `scrapeUrl` alias and checks `success` on that object (a v1-era check), so it is in `data` too.
    res.json({ success: true, data: { ...doc, success: true } });
  });
  router.post('/v1/scrape', async (req: Request, res: Response) => {
    const body = parseBody(firecrawlScrapeBodyV1, req.body);
    const { url: target, ...options } = body;
    const t = toNativePageFieldsV1(options);
    const doc = await firecrawlScrape(deps, authOf(res), target, t, res);
    // v1 answers the `extract` format under `extract`, the `json` format under `json`.
    if (t.json?.field === 'extract' && doc.json !== undefined) {
      const { json, ...rest } = doc;
      res.json({ success: true, data: { ...rest, extract: json } });
      return;
    }
    res.json({ success: true, data: doc });
  });
  return router;
}
