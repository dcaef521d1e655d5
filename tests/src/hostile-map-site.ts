/**
 * A local site built to stall discovery: a ~500 KB robots.txt of 20k rules (literal
 * and `/*…` wildcards) that disallows /p/13, a sitemap index listing itself and a sitemap of one
 * million URLs streamed with backpressure, and a start page of 100k nested <div>s followed by 100k
 * links. Counts requests per path and how many sitemap URLs it got to send.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocal } from '@wcs/testing';

export interface HostileMapSite {
  url: string;
  hits(path: string): number;
  /** URLs of /million.xml written before the client hung up (1,000,000 when it read it all). */
  sitemapUrlsSent(): number;
  robotsBytes: number;
  close(): Promise<void>;
}

export const HOSTILE_LINKS = 100_000;
export const HOSTILE_NESTING = 100_000;
export const HOSTILE_RULES = 20_000;
const SITEMAP_URLS = 1_000_000;

function robotsTxt(base: string): string {
  const lines = [`Sitemap: ${base}/sitemap-index.xml`, 'User-agent: *', 'Disallow: /p/13$'];
  for (let i = 0; i < HOSTILE_RULES; i++) {
    if (i % 4 === 0) lines.push(`Disallow: /*/never-${i}/*.php$`);
    else lines.push(`Disallow: /blk-${i}/`);
  }
  return `${lines.join('\n')}\n`;
}

function startPage(): string {
  const links: string[] = [];
  for (let i = 0; i < HOSTILE_LINKS; i++) links.push(`<a href="/p/${i}">page ${i}</a>`);
  return `<!DOCTYPE html><html><head><title>hostile</title></head><body>${'<div>'.repeat(HOSTILE_NESTING)}${links.join('')}${'</div>'.repeat(HOSTILE_NESTING)}</body></html>`;
}

export async function startHostileMapSite(): Promise<HostileMapSite> {
  const counts = new Map<string, number>();
  let base = '';
  let sent = 0;
  let robots = '';
  const page = startPage();

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    const send = (body: string, type: string) => {
      res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if (path === '/robots.txt') return send(robots, 'text/plain');
    if (path === '/') return send(page, 'text/html; charset=utf-8');
    if (path === '/sitemap-index.xml') {
      return send(
        `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${base}/sitemap-index.xml</loc></sitemap><sitemap><loc>${base}/sitemap-index.xml#again</loc></sitemap><sitemap><loc>${base}/million.xml</loc></sitemap></sitemapindex>`,
        'application/xml',
      );
    }
    if (path === '/million.xml') {
      res.writeHead(200, { 'content-type': 'application/xml' });
      res.write('<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">');
      let i = 0;
      const pump = () => {
        while (i < SITEMAP_URLS && !res.destroyed) {
          let chunk = '';
          for (let k = 0; k < 1_000; k++, i++) chunk += `<url><loc>${base}/p/${i}</loc></url>`;
          sent = i;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end('</urlset>');
      };
      return pump();
    }
    if (path.startsWith('/p/')) return send(`<html><body><h1>${path}</h1></body></html>`, 'text/html');
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  };

  const listening = await listenLocal(createServer(handle));
  base = listening.url;
  robots = robotsTxt(base);
  return {
    url: base,
    hits: (p) => counts.get(p) ?? 0,
    sitemapUrlsSent: () => sent,
    robotsBytes: Buffer.byteLength(robots),
    close: listening.close,
  };
}
