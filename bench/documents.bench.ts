/**
 * Document (PDF) benchmark, on PDFs generated here and served by a local server:
 *   1. the parser library on its own: pdfjs-dist `getTextContent` over every page, with the
 *      options @wcs/documents passes (the same work the service does) → pages/s and MB/s;
 *   2. the service: gateway + scrape worker as their own processes (as `pnpm start` runs them),
 *      POST /v1/scrape of each file, one at a time → pages/s, MB/s and the ratio to (1)
 *      (target: within 80 % of the library's throughput;
 *      the ~50 MB file stays under the default MAX_DOCUMENT_BYTES, 50 MiB);
 *   3. the scrape worker's peak RSS (its process tree) while it converts the ~50 MB PDF.
 *
 *   pnpm bench:documents [--runs 3]
 */
import { createServer } from 'node:http';
import Module from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { listenLocal } from '@wcs/testing';
import { request } from 'undici';
import {
  benchAccount,
  benchEnv,
  freePort,
  ROOT,
  startService,
  stopProcess,
  treeRssKb,
  waitHealthy,
} from './bench-utils';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' } } });
const RUNS = Number(values.runs);
const MB = 1_000_000;

// ---- fixtures ---------------------------------------------------------------------------------

const WORDS =
  'content service document page reading order heading paragraph table revenue quarter outlook market customer product growth report'.split(
    ' ',
  );

/** The slice of pdfkit used here; pdfkit is @wcs/testing's dependency, resolved from that package. */
interface Pdfkit {
  on(event: 'data', fn: (c: Buffer) => void): void;
  on(event: 'end', fn: () => void): void;
  on(event: 'error', fn: (err: unknown) => void): void;
  addPage(o: Record<string, unknown>): Pdfkit;
  image(src: Buffer, x: number, y: number, o: Record<string, unknown>): Pdfkit;
  fontSize(n: number): Pdfkit;
  text(s: string, x: number, y: number, o: Record<string, unknown>): Pdfkit;
  end(): void;
}
const PDFDocument = Module.createRequire(path.join(ROOT, 'packages/testing/package.json'))('pdfkit') as new (
  o: Record<string, unknown>,
) => Pdfkit;

/** Deterministic pseudo-random generator (so runs are comparable). */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/**
 * An image stream of `bytes` random bytes behind a JPEG header (SOI + SOF0): pdfkit embeds JPEG
 * data as is (DCTDecode). Text extraction never decodes images, so only the size matters; random
 * bytes keep the file from compressing.
 */
function imageBlob(bytes: number, next: () => number): Buffer {
  const head = Buffer.from([0xff, 0xd8, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x00, 0x01, 0x00, 0x03]);
  const body = Buffer.alloc(bytes);
  for (let i = 0; i < bytes; i += 4) body.writeUInt32LE(Math.floor(next() * 2 ** 32), i);
  // 0xff in the body would read as a marker to a JPEG parser; none is needed here.
  for (let i = 0; i < bytes; i++) if (body[i] === 0xff) body[i] = 0xfe;
  return Buffer.concat([head, body]);
}

/** `pages` pages of ~45 lines of body text each, optionally with an image of `imageBytes` per page. */
async function textPdf(pages: number, imageBytes = 0): Promise<Buffer> {
  const next = rng(pages * 7 + imageBytes);
  const doc = new PDFDocument({ autoFirstPage: false, compress: false, info: { Title: `Bench ${pages}` } });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  for (let p = 0; p < pages; p++) {
    doc.addPage({ size: 'A4', margin: 50 });
    if (imageBytes > 0) doc.image(imageBlob(imageBytes, next), 50, 600, { width: 200, height: 200 });
    doc.fontSize(p % 10 === 0 ? 20 : 14).text(`Section ${p + 1}: ${WORDS[p % WORDS.length]}`, 50, 50, {
      lineBreak: false,
    });
    for (let l = 0; l < 45; l++) {
      const line = Array.from({ length: 12 }, () => WORDS[Math.floor(next() * WORDS.length)]).join(' ');
      doc.fontSize(10).text(line, 50, 90 + l * 11, { lineBreak: false });
    }
  }
  doc.end();
  await done;
  return Buffer.concat(chunks);
}

// ---- (1) the library ---------------------------------------------------------------------------

interface PdfPage {
  getTextContent(): Promise<{ items: unknown[] }>;
  cleanup(): boolean;
}
interface PdfDoc {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
  destroy(): Promise<void>;
}
interface Pdfjs {
  getDocument(params: Record<string, unknown>): { promise: Promise<PdfDoc> };
}

/** pdfjs-dist as @wcs/documents loads it (its dependency, resolved from that package). */
function loadPdfjs(): Pdfjs {
  const req = Module.createRequire(path.join(ROOT, 'packages/documents/package.json'));
  const load = (Module as unknown as { _load: (r: string, p: null, m: boolean) => unknown })._load;
  return load(req.resolve('pdfjs-dist/legacy/build/pdf.mjs'), null, false) as Pdfjs;
}

async function libraryOnce(pdfjs: Pdfjs, bytes: Buffer): Promise<number> {
  const req = Module.createRequire(path.join(ROOT, 'packages/documents/package.json'));
  const fonts = `${path.join(path.dirname(req.resolve('pdfjs-dist/package.json')), 'standard_fonts')}${path.sep}`;
  const doc = await pdfjs.getDocument({
    data: new Uint8Array(bytes),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
    standardFontDataUrl: fonts,
  }).promise;
  let items = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    items += (await page.getTextContent()).items.length;
    page.cleanup();
  }
  await doc.destroy();
  return items;
}

// ---- main --------------------------------------------------------------------------------------

interface Row {
  file: string;
  pages: number;
  mb: number;
  libMs: number;
  svcMs: number;
  /** A plain GET of the file in this process (the download the service also does). */
  dlMs: number;
}

async function main(): Promise<void> {
  console.log('generating PDFs…');
  const files: Record<string, { bytes: Buffer; pages: number }> = {
    '/300-pages.pdf': { bytes: await textPdf(300), pages: 300 },
    '/50mb.pdf': { bytes: await textPdf(200, 237_000), pages: 200 },
  };
  for (const [name, f] of Object.entries(files))
    console.log(`  ${name}: ${f.pages} pages, ${(f.bytes.length / MB).toFixed(1)} MB`);
  const site = await listenLocal(
    createServer((req, res) => {
      const f = files[req.url ?? ''];
      if (!f) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': f.bytes.length });
      res.end(f.bytes);
    }),
  );

  // (1) the library, in this process: one warm-up, then RUNS timed runs per file.
  const pdfjs = loadPdfjs();
  const rows: Row[] = [];
  for (const [name, f] of Object.entries(files)) {
    await libraryOnce(pdfjs, f.bytes);
    const t = performance.now();
    for (let i = 0; i < RUNS; i++) await libraryOnce(pdfjs, f.bytes);
    rows.push({
      file: name,
      pages: f.pages,
      mb: f.bytes.length / MB,
      libMs: (performance.now() - t) / RUNS,
      svcMs: 0,
      dlMs: 0,
    });
  }

  // (2) + (3) the service.
  const port = await freePort();
  const common = {
    DATABASE_URL: benchEnv.DATABASE_URL,
    REDIS_URL: benchEnv.REDIS_URL,
    QUEUE_PREFIX: `bench-doc-${Date.now()}`,
    LOG_LEVEL: 'warn',
    ALLOW_PRIVATE_TARGETS: 'true',
    RATE_LIMIT_SCALE: '1000000',
    FETCH_TIMEOUT_MS: '120000',
    SCRAPE_TIMEOUT_MS: '300000',
    REQUEST_TIMEOUT_MS: '300000',
  };
  const gateway = startService('gateway', { ...common, PORT: String(port), HOST: '127.0.0.1' });
  const worker = startService('scrape-worker', { ...common, WORKER_CONCURRENCY: '1' });
  const base = `http://127.0.0.1:${port}`;
  let peak = 0;
  let sampling = false;
  const sampler = setInterval(() => {
    if (sampling && worker.pid) peak = Math.max(peak, treeRssKb(worker.pid));
  }, 50);
  try {
    const { headers } = await benchAccount(100_000);
    await waitHealthy(base);
    const scrape = async (name: string): Promise<void> => {
      const r = await request(`${base}/v1/scrape`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ url: `${site.url}${name}`, formats: ['markdown'], timeout: 120_000 }),
        headersTimeout: 600_000,
        bodyTimeout: 600_000,
      });
      const body = (await r.body.json()) as {
        success: boolean;
        data?: { markdown?: string };
        error?: string;
      };
      if (r.statusCode !== 200 || !body.data?.markdown)
        throw new Error(`${name}: ${r.statusCode} ${body.error ?? 'no markdown'}`);
    };
    // Worker RSS before any document, then its peak while it converts the 50 MB PDF (first time).
    const idleKb = treeRssKb(worker.pid ?? 0);
    sampling = true;
    await scrape('/50mb.pdf');
    sampling = false;
    for (const row of rows) {
      const t = performance.now();
      for (let i = 0; i < RUNS; i++) await (await request(`${site.url}${row.file}`)).body.arrayBuffer();
      row.dlMs = (performance.now() - t) / RUNS;
    }
    for (const row of rows) {
      await scrape(row.file); // warm-up
      const t = performance.now();
      for (let i = 0; i < RUNS; i++) await scrape(row.file);
      row.svcMs = (performance.now() - t) / RUNS;
    }

    console.log(`\nruns per file: ${RUNS} (sequential, one at a time)\n`);
    console.log(
      '| file | pages | MB | library pages/s | library MB/s | service pages/s | service MB/s | service / library | library ms | download ms | service ms |',
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const lib = r.pages / (r.libMs / 1000);
      const svc = r.pages / (r.svcMs / 1000);
      console.log(
        `| ${r.file} | ${r.pages} | ${r.mb.toFixed(1)} | ${lib.toFixed(0)} | ${(r.mb / (r.libMs / 1000)).toFixed(1)} | ${svc.toFixed(0)} | ${(r.mb / (r.svcMs / 1000)).toFixed(1)} | ${((100 * r.libMs) / r.svcMs).toFixed(0)} % | ${r.libMs.toFixed(0)} | ${r.dlMs.toFixed(0)} | ${r.svcMs.toFixed(0)} |`,
      );
    }
    console.log(
      `\nscrape worker RSS (process tree): ${(idleKb / 1024).toFixed(0)} MiB idle, peak ${(peak / 1024).toFixed(0)} MiB while converting /50mb.pdf`,
    );
  } finally {
    clearInterval(sampler);
    await Promise.all([stopProcess(worker), stopProcess(gateway)]);
    await site.close();
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
