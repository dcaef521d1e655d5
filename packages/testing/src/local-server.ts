import type { Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ListeningServer {
  url: string;
  port: number;
  /** Destroys open sockets and clears `timers`, so a test process exits promptly. */
  close(): Promise<void>;
}

/**
 * Listen on 127.0.0.1 (or `host`: an address of a test's own network namespace) at a random port,
 * tracking sockets so close() never waits for keep-alive or hanging responses. Every fake server
 * in this package starts through here.
 */
export function listenLocal(
  server: Server,
  timers: Set<NodeJS.Timeout> = new Set(),
  host = '127.0.0.1',
): Promise<ListeningServer> {
  const sockets = new Set<Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        url: `http://${host}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            for (const t of timers) clearTimeout(t);
            timers.clear();
            server.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      });
    });
  });
}
