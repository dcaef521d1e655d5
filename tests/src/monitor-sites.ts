import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A local site whose pages a test rewrites between checks. */
export function startMutableSite(): Promise<{
  url: string;
  set(path: string, body: string): void;
  close(): Promise<void>;
}> {
  const pages = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const body = pages.get(req.url ?? '/');
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  return listen(server, (url) => ({ url, set: (path: string, body: string) => pages.set(path, body) }));
}

export interface ReceivedHook {
  path: string;
  raw: string;
}

/** A webhook receiver answering 200 to everything; records every request. */
export function startHookReceiver(): Promise<{
  url: string;
  received: ReceivedHook[];
  close(): Promise<void>;
}> {
  const received: ReceivedHook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', raw: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end('ok');
    });
  });
  return listen(server, (url) => ({ url, received }));
}

function listen<T>(server: http.Server, make: (url: string) => T): Promise<T & { close(): Promise<void> }> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        ...make(`http://127.0.0.1:${port}`),
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}
