import { processDocument } from '@wcs/content';
import { DocumentUnreadableError, decodeError, ValidationError } from '@wcs/errors';
import { scrapeDocument } from '@wcs/queues';
import {
  DOCUMENT_FIXTURE_CREATED,
  encryptedPdf,
  REPORT_PDF,
  reportPdf,
  SAMPLE_DOCX,
  sampleDocx,
  scannedPdf,
} from '@wcs/testing';
import { type ContentTask, runContentTask, runPageTask } from './content.task';
import { ContentPool } from './content-pool';

const URL = 'http://site.test/docs/page';
const prose = (n: number, word: string): string =>
  Array.from(
    { length: n },
    (_, i) => `Sentence ${i} about ${word}, with commas, clauses, and enough words to count.`,
  ).join(' ');

const PAGE = `<!doctype html><html lang="en"><head><title>Docs Page</title><base href="/docs/v2/">
<meta property="og:image" content="/og.png"></head><body>
<header><a href="/">Home</a><img src="/logo.png"></header>
<nav><a href="guide">Guide</a> <a href="mailto:x@site.test">Mail</a></nav>
<article><h2>Install</h2><p>MAINMARK ${prose(8, 'installing')}</p><img src="shot.png" srcset="shot-1x.png 1x">
<div class="ad">ADMARK</div><p><a href="guide">the guide</a> ${prose(4, 'setup')}</p></article>
<footer><a href="https://other.test/">Other</a><img src="data:image/png;base64,AAAA"></footer></body></html>`;

const task = (over: Partial<ContentTask> = {}): ContentTask => ({
  body: PAGE,
  contentType: 'text/html; charset=utf-8',
  finalUrl: URL,
  sourceUrl: 'http://site.test/start',
  statusCode: 200,
  format: 'markdown',
  onlyMainContent: true,
  links: false,
  ...over,
});

function ok(t: ContentTask) {
  const out = runPageTask(t);
  if (!out.ok) throw decodeError(out.error);
  return out;
}

const METADATA = {
  title: 'Docs Page',
  statusCode: 200,
  sourceURL: 'http://site.test/start',
  finalUrl: URL,
  contentType: 'text/html; charset=utf-8',
  ogImage: 'http://site.test/og.png',
};

describe('runContentTask without formats: the documents as before', () => {
  it('markdown, html and text (the pipeline output unchanged) + metadata', () => {
    const { data, links } = ok(task());
    expect(Object.keys(data)).toEqual(['markdown', 'html', 'text', 'metadata']);
    const direct = processDocument(
      {
        body: PAGE,
        contentType: 'text/html',
        url: URL,
        sourceUrl: 'http://site.test/start',
        statusCode: 200,
      },
      { onlyMainContent: true },
    );
    expect(data.markdown).toBe(direct.markdown);
    expect(data.html).toBe(direct.html);
    expect(data.text).toBe(direct.text);
    expect(data.markdown).toContain('MAINMARK');
    expect(data.metadata).toMatchObject(METADATA);
    expect(links).toBeUndefined();
  });

  it('format json adds json', () => {
    const { data } = ok(task({ format: 'json' }));
    expect(Object.keys(data)).toEqual(['markdown', 'html', 'text', 'json', 'metadata']);
    expect(data.json?.blocks.length).toBeGreaterThan(0);
  });
});

describe('runContentTask with formats: exactly the fields asked for', () => {
  it("['links']: links and metadata only; every <a> of the page, absolute against <base href>", () => {
    const { data } = ok(task({ formats: ['links'] }));
    expect(Object.keys(data)).toEqual(['links', 'metadata']);
    expect(data.links).toEqual([
      'http://site.test/',
      'http://site.test/docs/v2/guide',
      'https://other.test/',
    ]);
    expect(data.metadata).toMatchObject(METADATA);
  });

  it("['images']: the page's images, absolute, without data: URIs or og:image", () => {
    const { data } = ok(task({ formats: ['images'] }));
    expect(Object.keys(data)).toEqual(['images', 'metadata']);
    expect(data.images).toEqual([
      'http://site.test/logo.png',
      'http://site.test/docs/v2/shot.png',
      'http://site.test/docs/v2/shot-1x.png',
    ]);
  });

  it("['rawHtml', 'markdown']: the body as fetched, and the same markdown as without formats", () => {
    const { data } = ok(task({ formats: ['rawHtml', 'markdown'] }));
    expect(Object.keys(data)).toEqual(['markdown', 'rawHtml', 'metadata']);
    expect(data.rawHtml).toBe(PAGE);
    expect(data.markdown).toBe(ok(task()).data.markdown);
  });

  it('json only when named, whatever `format` says; every field at once', () => {
    expect(Object.keys(ok(task({ format: 'json', formats: ['text'] })).data)).toEqual(['text', 'metadata']);
    const all = ok(
      task({ formats: ['markdown', 'html', 'rawHtml', 'text', 'json', 'links', 'images', 'screenshot'] }),
    ).data;
    expect(Object.keys(all)).toEqual([
      'markdown',
      'html',
      'rawHtml',
      'text',
      'json',
      'links',
      'images',
      'metadata',
    ]);
  });

  it('only a screenshot: metadata alone (the caller adds the screenshot)', () => {
    expect(Object.keys(ok(task({ formats: ['screenshot@fullPage'] })).data)).toEqual(['metadata']);
  });

  it('a non-HTML body: empty links and images lists, the text as content', () => {
    const { data } = ok(
      task({ body: 'just text', contentType: 'text/plain', formats: ['markdown', 'links', 'images'] }),
    );
    expect(data).toMatchObject({ markdown: 'just text', links: [], images: [] });
    expect(data.metadata.contentType).toBe('text/plain');
  });

  it("the crawler's links stay beside the links format", () => {
    const out = ok(task({ links: true, formats: ['markdown'] }));
    expect(Object.keys(out.data)).toEqual(['markdown', 'metadata']);
    expect(out.links?.map((l) => l.url)).toEqual([
      'http://site.test/',
      'http://site.test/docs/v2/guide',
      'https://other.test/',
    ]);
    const both = ok(task({ links: true, formats: ['links'] }));
    expect(both.data.links).toEqual(both.links?.map((l) => l.url));
  });

  it('a cut page keeps its warning', () => {
    const many = Array.from({ length: 20_010 }, (_, i) => `<a href="/l${i}">l</a>`).join('');
    const { data } = ok(task({ body: `<html><body>${many}</body></html>`, formats: ['links'] }));
    expect(data.links).toHaveLength(20_000);
    expect(data.warning).toMatch(/links beyond 20000/);
  });
});

describe('runContentTask tag options', () => {
  it('includeTags / excludeTags shape the content', () => {
    const inc = ok(task({ onlyMainContent: false, includeTags: ['nav', 'footer'], formats: ['markdown'] }));
    expect(inc.data.markdown).toContain('[Guide](http://site.test/docs/v2/guide)');
    expect(inc.data.markdown).not.toContain('MAINMARK');
    const exc = ok(task({ onlyMainContent: false, excludeTags: ['.ad'], formats: ['markdown'] }));
    expect(ok(task({ onlyMainContent: false })).data.markdown).toContain('ADMARK');
    expect(exc.data.markdown).not.toContain('ADMARK');
    expect(exc.data.markdown).toContain('MAINMARK');
  });

  it('an invalid selector comes back as a ValidationError naming it', () => {
    const out = runPageTask(task({ excludeTags: ['p', 'a['] }));
    expect(out.ok).toBe(false);
    const err = decodeError(out.ok ? '' : out.error);
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe('excludeTags: "a[" is not a valid CSS selector');
  });
});

describe('through a content thread', () => {
  const pool = new ContentPool({ threads: 1, idleTimeoutMs: 300, taskTimeoutMs: 30_000, heapMb: 256 });
  afterAll(() => pool.close());

  it('the new fields cross the thread boundary, and so does a ValidationError', async () => {
    const out = await pool.run(task({ formats: ['links', 'images'], includeTags: ['article'] }));
    expect(out.data).toEqual(ok(task({ formats: ['links', 'images'], includeTags: ['article'] })).data);
    await expect(pool.run(task({ includeTags: ['::before'] }))).rejects.toBeInstanceOf(ValidationError);
  });
});

const PDF_TYPE = 'application/pdf';
const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

async function okDocument(t: ContentTask) {
  const out = await runContentTask(t);
  if (!out.ok) throw decodeError(out.error);
  return out;
}

describe('runContentTask on documents', () => {
  it('a PDF: headings, page markers in markdown only, document metadata, running text dropped', async () => {
    const bytes = await reportPdf();
    const { data } = await okDocument(
      task({ body: '', contentType: PDF_TYPE, bytes, documentKind: 'pdf', onlyMainContent: true }),
    );
    expect(scrapeDocument.safeParse(data).success).toBe(true);
    expect(data.markdown).toContain(`# ${REPORT_PDF.heading1}`);
    expect(data.markdown).toContain(`## ${REPORT_PDF.heading2}`);
    expect(data.markdown).toMatch(/<!-- page 1 -->[\s\S]*<!-- page 2 -->[\s\S]*<!-- page 3 -->/);
    expect(data.markdown!.indexOf(REPORT_PDF.body2)).toBeGreaterThan(
      data.markdown!.indexOf('<!-- page 2 -->'),
    );
    expect(data.markdown).not.toContain('Confidential');
    expect(data.markdown).not.toContain('Acme Corp Quarterly Report');
    expect(data.text).not.toContain('page 2');
    expect(data.text).toContain(REPORT_PDF.body2);
    expect(data.html).not.toContain('<!--');
    expect(data.metadata).toMatchObject({
      title: REPORT_PDF.title,
      author: REPORT_PDF.author,
      pages: 3,
      createdAt: DOCUMENT_FIXTURE_CREATED.toISOString(),
      contentType: PDF_TYPE,
      statusCode: 200,
      sourceURL: 'http://site.test/start',
    });
    expect(data.warning).toBeUndefined();
  });

  it('without onlyMainContent the running headers stay', async () => {
    const bytes = await reportPdf();
    const { data } = await okDocument(
      task({ body: '', contentType: PDF_TYPE, bytes, documentKind: 'pdf', onlyMainContent: false }),
    );
    expect(data.markdown).toContain('Acme Corp Quarterly Report');
    expect(data.markdown).toContain('Page 3 of 3');
  });

  it('a scanned PDF: empty content and the NO_TEXT_LAYER warning', async () => {
    const bytes = await scannedPdf();
    const { data } = await okDocument(task({ body: '', contentType: PDF_TYPE, bytes, documentKind: 'pdf' }));
    expect(data.markdown).toBe('');
    expect(data.warning).toContain('NO_TEXT_LAYER');
  });

  it('a DOCX: headings, list, GFM table and link in markdown', async () => {
    const d = SAMPLE_DOCX;
    const bytes = await sampleDocx();
    const { data } = await okDocument(
      task({ body: '', contentType: DOCX_TYPE, bytes, documentKind: 'docx', formats: ['markdown', 'links'] }),
    );
    expect(data.markdown).toContain(`# ${d.heading}`);
    expect(data.markdown).toContain(`## ${d.subheading}`);
    expect(data.markdown).toMatch(/^- Design the API$/m);
    expect(data.markdown).toMatch(/\| Phase \| Owner \|\n\| -+ \| -+ \|\n\| Design \| Alice \|/);
    expect(data.markdown).toContain(`[${d.linkText}](${d.linkUrl})`);
    expect(data.links).toEqual([d.linkUrl]);
    expect(data.metadata).toMatchObject({ title: d.title, author: d.author, contentType: DOCX_TYPE });
  });

  it('an encrypted PDF is a DOCUMENT_UNREADABLE error', async () => {
    const out = await runContentTask(
      task({ body: '', contentType: PDF_TYPE, bytes: await encryptedPdf(), documentKind: 'pdf' }),
    );
    expect(out.ok).toBe(false);
    const err = decodeError(out.ok ? '' : out.error);
    expect(err).toBeInstanceOf(DocumentUnreadableError);
    expect(err.details).toMatchObject({ reason: 'encrypted' });
  });
});

describe('documents through a content thread', () => {
  const pool = new ContentPool({ threads: 1, idleTimeoutMs: 300, taskTimeoutMs: 30_000, heapMb: 256 });
  afterAll(() => pool.close());

  it('a PDF converts in the thread (its bytes moved there), an encrypted one fails typed', async () => {
    const bytes = new Uint8Array(await reportPdf());
    const out = await pool.run(task({ body: '', contentType: PDF_TYPE, bytes, documentKind: 'pdf' }));
    expect(out.data.markdown).toContain(`# ${REPORT_PDF.heading1}`);
    expect(out.data.markdown).toContain('<!-- page 3 -->');
    expect(out.data.metadata.author).toBe(REPORT_PDF.author);
    // Moved, not copied: the caller's view is detached.
    expect(bytes.byteLength).toBe(0);
    const locked = new Uint8Array(await encryptedPdf());
    await expect(
      pool.run(task({ body: '', contentType: PDF_TYPE, bytes: locked, documentKind: 'pdf' })),
    ).rejects.toBeInstanceOf(DocumentUnreadableError);
  });
});
