import { createServer } from 'node:http';
import {
  type ListeningServer,
  listenLocal,
  REPORT_PDF,
  reportPdf,
  SAMPLE_DOCX,
  sampleDocx,
} from '@wcs/testing';
import request from 'supertest';
import { startCrawl, waitForCrawl } from './crawl-helpers';
import { createTestAccount, pollUntil, type Stack, startStack } from './harness';

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
  stack = await startStack({ crawlWorker: true, mapWorker: true, env: { CRAWL_PAGE_TIMEOUT_MS: '10000' } });
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

  it('map lists the documents; a search hit that is a PDF is scraped as a document', async () => {
    const account = await createTestAccount({ credits: 50 });
    const map = await request(stack.url)
      .post('/v1/map')
      .set(account.auth)
      .send({ url: `${site.url}/` });
    expect(map.status).toBe(200);
    expect(map.body.links).toEqual(
      expect.arrayContaining([`${site.url}/report.pdf`, `${site.url}/plan.docx`]),
    );
    // A crawled PDF is in the account's search index; a fresh search scrapes the hit again.
    const id = await startCrawl(stack.url, account.auth, { url: `${site.url}/`, maxDepth: 1 });
    expect((await waitForCrawl(stack.url, id, account.auth)).status).toBe('done');
    const hit = await pollUntil(async () => {
      const r = await request(stack.url)
        .post('/v1/search')
        .set(account.auth)
        .send({ query: 'revenue grew twelve percent', num_results: 1, fresh: true });
      return r.status === 200 && r.body.data.length > 0 ? r.body.data[0] : undefined;
    }, 15_000);
    expect(hit.url).toBe(`${site.url}/report.pdf`);
    expect(hit.markdown).toContain(REPORT_PDF.body1);
    expect(hit.metadata).toMatchObject({ pages: 3, contentType: 'application/pdf' });
  });
});
