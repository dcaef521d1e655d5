/**
 * Bodies of the hostile site's pages. Big ones are produced in chunks (`streamRepeated`) so the
 * site itself never holds tens of megabytes; small ones are plain strings.
 */
import type { ServerResponse } from 'node:http';
import { deflateSync } from 'node:zlib';
import { writeOrClose } from './hostile-bombs';

/** Text every "ordinary" hostile page carries, so a test can tell real content from garbage. */
export const HOSTILE_MARKER = 'Hostile fixture paragraph';

export const HUGE_PAGE_BYTES = 50 * 1024 * 1024;
export const HUGE_TEXT_BYTES = 5 * 1024 * 1024;
export const DEEP_NESTING_LEVELS = 100_000;
export const MANY_LINKS = 100_000;
export const SITEMAP_MILLION_URLS = 1_000_000;

export function articleHtml(title: string, extra = ''): string {
  const p = `<p>${HOSTILE_MARKER}: a calm page about ${title}, with enough words to be an article.</p>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${p.repeat(5)}${extra}</main></body></html>`;
}

/**
 * Sends `head`, then `count` chunks from `chunk(i)`, then `tail`, with backpressure; stops when the
 * client goes away. `count = Infinity` is the endless stream.
 */
export async function streamRepeated(
  res: ServerResponse,
  head: string,
  chunk: (i: number) => string,
  count: number,
  tail: string,
): Promise<void> {
  if (!(await writeOrClose(res, head))) return;
  for (let i = 0; i < count; i++) if (!(await writeOrClose(res, chunk(i)))) return;
  if (await writeOrClose(res, tail)) res.end();
}

const HTML_HEAD = (title: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1><p>${HOSTILE_MARKER}.</p>`;
const HTML_TAIL = '</main></body></html>';
const FILLER = `<p>${'filler text for a very large page '.repeat(30)}</p>\n`; // ~1 KB

export function sendHuge(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const per = Buffer.byteLength(FILLER) * 64;
  const chunk = FILLER.repeat(64);
  return streamRepeated(
    res,
    HTML_HEAD('Huge page'),
    () => chunk,
    Math.ceil(HUGE_PAGE_BYTES / per),
    HTML_TAIL,
  );
}

/** HTML that never ends: chunks as fast as the client reads them, no Content-Length. */
export function sendEndless(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const chunk = FILLER.repeat(64);
  return streamRepeated(res, HTML_HEAD('Endless page'), () => chunk, Number.POSITIVE_INFINITY, HTML_TAIL);
}

export function sendDeepNesting(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const open = '<div>'.repeat(1000);
  const close = '</div>'.repeat(1000);
  const n = DEEP_NESTING_LEVELS / 1000;
  return streamRepeated(
    res,
    HTML_HEAD('Deep nesting'),
    (i) => (i < n ? open : i === n ? `<p>innermost</p>${close}` : close),
    2 * n + 1,
    HTML_TAIL,
  );
}

export function sendHugeText(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  const words = 'oneverylongtextnodewithoutanymarkup '.repeat(1820); // ~64 KB, no tags
  return streamRepeated(
    res,
    `${HTML_HEAD('Huge text node')}<p>`,
    () => words,
    Math.ceil(HUGE_TEXT_BYTES / words.length),
    `</p>${HTML_TAIL}`,
  );
}

export function sendManyLinks(res: ServerResponse, base: string): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  return streamRepeated(
    res,
    `${HTML_HEAD('Many links')}<ul>`,
    (i) => `<li><a href="${base}/page/link-${i}">link ${i}</a></li>\n`,
    MANY_LINKS,
    `</ul>${HTML_TAIL}`,
  );
}

/** Deterministic noise (xorshift32), so every run serves the same "random" bytes. */
function noise(length: number, seed: number): Buffer {
  const out = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

/** A valid 64×64 PNG (one grey IDAT), padded with random bytes to ~1.6 MB like the probe saw. */
function pngBytes(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(td));
    return Buffer.concat([len, td, crc]);
  };
  const ihdr = Buffer.from([0, 0, 0, 64, 0, 0, 0, 64, 8, 0, 0, 0, 0]);
  const raw = Buffer.alloc(64 * 65, 0x80);
  for (let y = 0; y < 64; y++) raw[y * 65] = 0; // filter byte per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('tEXt', noise(1_600_000, 1)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

/** A ZIP local file header + stored data (enough for any sniffer to say "zip"). */
function zipBytes(): Buffer {
  const data = noise(512 * 1024, 2);
  const h = Buffer.alloc(30);
  h.writeUInt32LE(0x04034b50, 0);
  h.writeUInt16LE(20, 4);
  h.writeUInt32LE(data.length, 18);
  h.writeUInt32LE(data.length, 22);
  h.writeUInt16LE(8, 26);
  return Buffer.concat([h, Buffer.from('page.bin'), data]);
}

let png: Buffer | undefined;
let zip: Buffer | undefined;
let random: Buffer | undefined;

export type BinaryKind = 'png' | 'zip' | 'random';

/** Binary served as `text/html`: the service must look at the bytes (415), not trust the header. */
export function binaryBody(kind: BinaryKind): Buffer {
  if (kind === 'png') {
    png ??= pngBytes();
    return png;
  }
  if (kind === 'zip') {
    zip ??= zipBytes();
    return zip;
  }
  random ??= noise(1024 * 1024, 3);
  return random;
}

/** Declared UTF-8, bytes Latin-1 ("Café crème, naïve"), or declared `x-foo` with UTF-8 bytes. */
export function charsetBody(kind: 'latin1-as-utf8' | 'unknown'): { type: string; body: Buffer } {
  const html = articleHtml('Café crème, naïve façade').replace('<meta charset="utf-8">', '');
  return kind === 'latin1-as-utf8'
    ? { type: 'text/html; charset=utf-8', body: Buffer.from(html, 'latin1') }
    : { type: 'text/html; charset=x-foo', body: Buffer.from(html, 'utf8') };
}

/** A small client-rendered shell (the auto engine takes the browser) that iframes an endless page. */
export function appShellHtml(endlessUrl: string): string {
  return `<!doctype html><html><head><title>App</title></head><body><div id="root"></div>
<iframe src="${endlessUrl}" width="10" height="10"></iframe>
<script>document.getElementById('root').textContent = 'Loading the application';</script></body></html>`;
}

export const ROBOTS_HUGE_BYTES = 10 * 1024 * 1024;

/** ~10 MB of distinct wildcard rules (the probe's 500 KB already cost 3 ms per URL), then Allow. */
export function sendHugeRobots(res: ServerResponse): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/plain' });
  const line = (i: number) => `Disallow: /private-${i}/*/section-*.html$\n`;
  const per = line(500_000).length;
  return streamRepeated(res, 'User-agent: *\n', line, Math.ceil(ROBOTS_HUGE_BYTES / per), 'Allow: /\n');
}

export function sendMillionSitemap(res: ServerResponse, base: string): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/xml' });
  return streamRepeated(
    res,
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
    (i) => `<url><loc>${base}/page/sitemap-${i}</loc></url>\n`,
    SITEMAP_MILLION_URLS,
    '</urlset>\n',
  );
}

/** A sitemap index that lists itself (and one real sitemap, so a map still finds something). */
export function selfSitemapIndex(base: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<sitemap><loc>${base}/sitemap-index.xml</loc></sitemap>
<sitemap><loc>${base}/sitemap-index.xml?again=1</loc></sitemap>
<sitemap><loc>${base}/sitemap-pages.xml</loc></sitemap>
</sitemapindex>`;
}

export function smallSitemap(base: string, n = 5): string {
  const urls = Array.from({ length: n }, (_, i) => `<url><loc>${base}/page/listed-${i}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`;
}
