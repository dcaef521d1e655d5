/** A tiny node:http server for discovery tests: route table, access log, open sockets closed on close(). */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, base: string) => void;

export interface LocalServer {
  url: string;
  /** `path?query` of every request, in arrival order. */
  log: string[];
  close(): Promise<void>;
}

export function startLocalServer(routes: Record<string, Handler>): Promise<LocalServer> {
  const log: string[] = [];
  const sockets = new Set<Socket>();
  let base = '';
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    log.push(req.url ?? '/');
    const route = routes[path];
    if (route) return route(req, res, base);
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        url: base,
        log,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      });
    });
  });
}

export const send =
  (
    body: string | Buffer,
    type = 'text/plain; charset=utf-8',
    status = 200,
    extra: Record<string, string> = {},
  ) =>
  (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra });
    res.end(body);
  };
