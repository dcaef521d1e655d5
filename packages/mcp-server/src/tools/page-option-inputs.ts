/**
 * Page options (README "Page options") as tool inputs, shared by service_scrape,
 * service_batch_scrape and service_crawl. Descriptions stay short: the host shows them to the
 * model with every tool. Limits mirror the API's so a mistake fails before any credit moves.
 */
import type { PageAction, PageFormat, PageOptions } from '@wcs/client-node';
import { z } from 'zod';

export const PAGE_FORMATS = [
  'markdown',
  'html',
  'rawHtml',
  'text',
  'json',
  'links',
  'images',
  'screenshot',
  'screenshot@fullPage',
  'summary',
] as const satisfies readonly PageFormat[];

const selector = z.string().min(1).max(500);
const selectors = (what: string) => z.array(selector).max(50).optional().describe(what);

const action = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('wait'),
    milliseconds: z.number().int().min(1).max(60_000).optional(),
    selector: selector.optional(),
  }),
  z.object({ type: z.literal('click'), selector, all: z.boolean().optional() }),
  z.object({ type: z.literal('write'), text: z.string().max(10_000) }),
  z.object({ type: z.literal('press'), key: z.string().min(1).max(50) }),
  z.object({
    type: z.literal('scroll'),
    direction: z.enum(['up', 'down']).optional(),
    selector: selector.optional(),
  }),
  z.object({ type: z.literal('executeJavascript'), script: z.string().min(1).max(100_000) }),
  z.object({ type: z.literal('screenshot'), fullPage: z.boolean().optional() }),
]);

/** The inputs, spread into a tool's `inputSchema`. */
export const pageOptionInputs = {
  formats: z
    .array(z.enum(PAGE_FORMATS))
    .min(1)
    .max(PAGE_FORMATS.length)
    .optional()
    .describe(
      'Exactly what to return per page (replaces format): markdown, html, rawHtml, text, json, links, images, ' +
        'screenshot, screenshot@fullPage, summary (a few sentences by the extract model, +5 credits a page). ' +
        'A screenshot comes back as a URL.',
    ),
  headers: z
    .record(z.string().min(1).max(200), z.string().max(8_192))
    .optional()
    .describe('HTTP headers sent with the page request, e.g. {"Cookie": "session=…"}. Never logged.'),
  actions: z
    .array(action)
    .max(50)
    .optional()
    .describe(
      'Browser steps before the content is taken, e.g. [{"type":"click","selector":"#more"},' +
        '{"type":"wait","milliseconds":500}]. Types: wait, click, write, press, scroll, executeJavascript, screenshot.',
    ),
  mobile: z.boolean().optional().describe('Load the page as a phone would.'),
  location: z
    .object({
      country: z
        .string()
        .regex(/^[A-Za-z]{2}$/)
        .optional(),
      languages: z.array(z.string().min(2).max(35)).min(1).max(10).optional(),
    })
    .optional()
    .describe('Country (ISO code, e.g. "DE") and languages (e.g. ["de-DE"]) the page is asked for.'),
  includeTags: selectors('CSS selectors: keep only these elements, e.g. ["article"].'),
  excludeTags: selectors('CSS selectors: remove these elements, e.g. [".ad", "nav"].'),
  maxAge: z
    .number()
    .int()
    .min(0)
    .max(365 * 24 * 3600 * 1000)
    .optional()
    .describe('Accept a cached copy up to this many ms old (faster; 0 = always fetch).'),
};

type PageOptionArgs = {
  [K in keyof typeof pageOptionInputs]?: z.infer<(typeof pageOptionInputs)[K]>;
};

/** The page options a tool call gave, for the client (absent ones left out). */
export function pageOptionsOf(args: PageOptionArgs): PageOptions {
  const { formats, headers, actions, mobile, location, includeTags, excludeTags, maxAge } = args;
  const options: PageOptions = {
    ...(formats ? { formats } : {}),
    ...(headers ? { headers } : {}),
    ...(actions ? { actions: actions as PageAction[] } : {}),
    ...(mobile !== undefined ? { mobile } : {}),
    ...(location ? { location } : {}),
    ...(includeTags ? { includeTags } : {}),
    ...(excludeTags ? { excludeTags } : {}),
    ...(maxAge !== undefined ? { maxAge } : {}),
  };
  return options;
}

/** The document keys a `formats` list names (both screenshot formats land in `screenshot`). */
export function formatKeys(formats: readonly PageFormat[]): string[] {
  return [...new Set(formats.map((f) => (f === 'screenshot@fullPage' ? 'screenshot' : f)))];
}
