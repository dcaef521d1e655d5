/**
 * The service as the Firecrawl clients see it: the whole client stack (gateway + every
 * worker + webhook dispatcher, fixture site, fake model) and `apiUrl = <gateway>/firecrawl`, plus a
 * local webhook receiver and what a test needs to check Firecrawl-convention signatures.
 */
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { listenLocal } from '@wcs/testing';
import { type ClientStack, startClientStack } from '../clients/client-stack';
import { createTestAccount, type TestAccount } from '../harness';

export interface FirecrawlStack extends ClientStack {
  /** What the SDKs take as `apiUrl`: the gateway with the `/firecrawl` prefix. */
  apiUrl: string;
  apiKey: string;
}

export async function startFirecrawlStack(opts: { browser?: boolean } = {}): Promise<FirecrawlStack> {
  const s = await startClientStack(opts);
  return { ...s, apiUrl: `${s.baseUrl}/firecrawl`, apiKey: s.account.apiKey };
}

/** A fresh account with exactly `credits` (0 for the 402 tests). */
export function accountWithCredits(credits: number): Promise<TestAccount> {
  return createTestAccount({ plan: 'hobby', credits });
}

/** The account's webhook HMAC key, from the native account API (`GET /v1/webhook/secret`). */
export async function webhookSecret(baseUrl: string, apiKey: string): Promise<string> {
  const res = await fetch(`${baseUrl}/v1/webhook/secret`, { headers: { Authorization: `Bearer ${apiKey}` } });
  if (!res.ok) throw new Error(`GET /v1/webhook/secret: HTTP ${res.status}`);
  const body = (await res.json()) as { data?: { secret?: string } };
  if (!body.data?.secret) throw new Error('GET /v1/webhook/secret: no secret in the answer');
  return body.data.secret;
}

/** Firecrawl's convention: `sha256=<hex HMAC-SHA256 of the raw body>` (computed here, not by the service's code). */
export function firecrawlSignature(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

export interface ReceivedHook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: { type?: string; id?: string; success?: boolean; data?: unknown; metadata?: unknown; error?: string };
}

export interface HookReceiver {
  url: string;
  received: ReceivedHook[];
  close(): Promise<void>;
}

/** Records every POST with its raw body (signatures are over the exact bytes) and answers 200. */
export async function startHookReceiver(): Promise<HookReceiver> {
  const received: ReceivedHook[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: ReceivedHook['body'] = {};
      try {
        body = JSON.parse(raw) as ReceivedHook['body'];
      } catch {
        // kept raw: the test asserting on it will show what arrived
      }
      received.push({ path: req.url ?? '', headers: req.headers, raw, body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  const listening = await listenLocal(server);
  return { url: listening.url, received, close: listening.close };
}

/** Text of the fixture site's home page that main-content extraction keeps. */
export const HOME_TITLE = 'Understanding Web Content Extraction';
export const HOME_TABLE_CELL = 'Headless browser';

/**
 * A site of `pages` large pages (`/big/0` … each about `bytes` of text) under a small hub `/big`
 * that links to them (a crawl stays below its start path): a crawl of a few of them overflows one
 * status page (~10 MB of documents), so `next` paging shows with a handful of pages.
 */
export async function startBigPageSite(pages: number, bytes: number) {
  const paragraph = (n: number, i: number) =>
    `<p>Big page ${n}, paragraph ${i}: ${'the quick brown fox jumps over the lazy dog '.repeat(20)}</p>\n`;
  const bodies = Array.from({ length: pages }, (_, n) => {
    const links = Array.from({ length: pages }, (_, k) => `<a href="/big/${k}">page ${k}</a>`).join(' ');
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < bytes; i++) {
      const p = paragraph(n, i);
      parts.push(p);
      size += p.length;
    }
    return `<!DOCTYPE html><html><head><title>Big page ${n}</title></head><body><main><h1>Big page ${n}</h1><nav>${links}</nav>${parts.join('')}</main></body></html>`;
  });
  const hub = `<!DOCTYPE html><html><head><title>Big pages</title></head><body><main><h1>Big pages</h1>${Array.from(
    { length: pages },
    (_, k) => `<p><a href="/big/${k}">page ${k}</a></p>`,
  ).join('')}</main></body></html>`;
  const server = createServer((req, res) => {
    const m = /^\/big\/(\d+)$/.exec(req.url ?? '');
    const body = req.url === '/big' ? hub : m ? bodies[Number(m[1])] : undefined;
    if (!body) return void res.writeHead(404).end('not found');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  return listenLocal(server);
}
