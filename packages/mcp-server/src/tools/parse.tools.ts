/** service_parse: a file the user has (PDF, DOCX, HTML) → markdown (or the formats asked) + metadata. */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { z } from 'zod';
import { runTool } from '../tool-result.js';
import { pickFormat, pickFormats } from './scrape.tools.js';
import { onlyMainContentInput } from './shared-inputs.js';
import type { ToolRegistrar } from './tool-context.js';

const FORMATS = ['markdown', 'html', 'text', 'json'] as const;
const PARSE_FORMATS = ['markdown', 'html', 'rawHtml', 'text', 'json', 'links', 'summary'] as const;

export const registerParseTools: ToolRegistrar = (server, ctx) => {
  server.registerTool(
    'service_parse',
    {
      title: 'Convert a local file (PDF, DOCX, HTML) to markdown',
      description:
        'Convert ONE file the user already has — a PDF, a Word document (.docx) or an HTML file — into clean ' +
        'markdown plus metadata (title, author, pages…), the same document service_scrape gives for a page. ' +
        'Give `path` (a file on the machine running this server) or `html` (HTML text). The type is read from ' +
        "the file's bytes; other kinds are refused. For a page on the web use service_scrape. " +
        'Cost: 1 credit (refunded if the file cannot be read).',
      inputSchema: {
        path: z
          .string()
          .min(1)
          .optional()
          .describe('Path of a local PDF, DOCX or HTML file, e.g. "/home/me/report.pdf".'),
        html: z.string().min(1).optional().describe('HTML text to convert, instead of a file.'),
        format: z
          .enum(FORMATS)
          .default('markdown')
          .describe('What to return besides metadata: "markdown" (default), "html", "text" or "json".'),
        formats: z
          .array(z.enum(PARSE_FORMATS))
          .min(1)
          .optional()
          .describe('Instead of format: exactly these, e.g. ["markdown", "links"].'),
        onlyMainContent: onlyMainContentInput,
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ path, html, format, formats, onlyMainContent }, extra) =>
      runTool(ctx.client, async (client) => {
        if ((path === undefined) === (html === undefined))
          throw new Error('Give exactly one of path and html.');
        const bytes = path !== undefined ? await readFile(path) : new TextEncoder().encode(html);
        const response = await client.parse(bytes, {
          filename: path !== undefined ? basename(path) : 'page.html',
          ...(formats ? { formats } : { format }),
          ...(onlyMainContent !== undefined ? { onlyMainContent } : {}),
          signal: extra.signal,
        });
        return formats ? pickFormats(response, formats) : pickFormat(response, format);
      }),
  );
};
