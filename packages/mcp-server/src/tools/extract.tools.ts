/** service_extract: structured JSON out of one page, shaped by a schema and/or a prompt. */
import type { ExtractOptions } from '@wcs/client-node';
import { z } from 'zod';
import { runTool } from '../tool-result.js';
import { urlInput } from './shared-inputs.js';
import type { ToolRegistrar } from './tool-context.js';

export const registerExtractTools: ToolRegistrar = (server, ctx) => {
  server.registerTool(
    'service_extract',
    {
      title: 'Extract structured data from a page',
      description:
        'Read ONE page and return specific fields as JSON (product name and price, article author and date, ' +
        "contact details…), filled in by a language model from the page's main content. Use it when you need " +
        'values, not prose; use service_scrape to read the page yourself. Give a schema (the exact shape you ' +
        'want back), a prompt, or both. Fields the page does not contain come back null — never guessed. ' +
        'Returns { data: <object shaped like schema> }. Cost: 5 credits (refunded if it fails).',
      inputSchema: {
        url: urlInput(
          'The page to extract from, e.g. "https://example.com/product/42" (a bare domain gets https://).',
        ),
        schema: z
          .record(z.string(), z.unknown())
          .optional()
          .describe(
            'The shape wanted back, as plain JSON: values are "string", "number" or "boolean", a one-element ' +
              'array holding the element shape, or a nested object. Example: { "name": "string", "price": ' +
              '"number", "inStock": "boolean", "sellers": [ { "name": "string" } ] }. Other type names are rejected.',
          ),
        prompt: z
          .string()
          .min(1)
          .max(10_000)
          .optional()
          .describe(
            'An instruction for the model, e.g. "prices in EUR". Without a schema the model picks the keys.',
          ),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ url, schema, prompt }, extra) =>
      runTool(ctx.client, (client) =>
        // The API validates the schema's grammar and answers 400 naming the bad path.
        client.extract(url, { schema: schema as ExtractOptions['schema'], prompt, signal: extra.signal }),
      ),
  );
};
