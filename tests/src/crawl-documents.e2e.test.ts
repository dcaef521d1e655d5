import { createServer } from 'node:http';
import {
  type ListeningServer,
  listenLocal,
  REPORT_PDF,
  reportPdf,
  SAMPLE_DOCX,
  sampleDocx,
} from '@wcs/testing';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import { createTestAccount, type Stack, startStack } from './harness';

let stack: Stack;
let site: ListeningServer;
const requested: string[] = [];

const html = (title: string, links: string[]) =>
  `<!doctype html><html><head><title>${title}</title></head><body><main><h1>${title}</h1>` +
  `<p>${title} is a page of the document fixture site, with a few links below.</p>` +
  `${links.map((l) => `<p><a href="${l}">${l}</a></p>`).join('')}</main></body></html>`;

beforeAll(async () => {
  const bodies: Record<string, [Buffer, string]> = {
    '/': [
      Buffer.from(
        html('Home', ['/report.pdf', '/plan.docx', '/logo.png', '/old.doc', '/sheet.xlsx', '/about']),
      ),
      'text/html',
    ],
    '/about': [Buffer.from(html('About', ['/report.pdf'])), 'text/html'],
    '/report.pdf': [await reportPdf(), 'application/pdf'],
    '/plan.docx': [await sampleDocx(), 'application/octet-stream'],
  };
  site = await listenLocal(
    createServer((req, res) => {
      requested.push(req.url ?? '');
      const entry = bodies[req.url ?? ''];
      if (!entry) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      res.writeHead(200, { 'content-type': entry[1] });
      res.end(entry[0]);
    }),
  );
  stack = await startStack({ worker: false, crawlWorker: true, env: { CRAWL_PAGE_TIMEOUT_MS: '10000' } });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

describe('crawls and documents', () => {
  it('follows same-site links to PDF and DOCX and converts them; other files are never requested', async () => {
    const account = await createTestAccount({ credits: 50 });
    const id = await startCrawl(stack.url, account.auth, { url: `${site.url}/`, maxDepth: 2 });
    const done = await waitForCrawl(stack.url, id, account.auth);
    expect(done.status).toBe('done');
    const urls = done.pages.map((p) => p.url.slice(site.url.length)).sort();
    expect(urls).toEqual(['/', '/about', '/plan.docx', '/report.pdf']);
    const pdf = done.pages.find((p) => p.url.endsWith('/report.pdf'));
    expect(pdf?.markdown).toContain(REPORT_PDF.body1);
    const docx = done.pages.find((p) => p.url.endsWith('/plan.docx'));
    expect(docx?.markdown).toContain(SAMPLE_DOCX.paragraph);
    for (const path of ['/logo.png', '/old.doc', '/sheet.xlsx']) expect(requested).not.toContain(path);
    // The PDF, linked twice, was fetched once.
    expect(requested.filter((p) => p === '/report.pdf')).toHaveLength(1);
  });
});
