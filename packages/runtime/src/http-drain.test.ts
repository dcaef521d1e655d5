import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpDrainer } from './http-drain';

/** A server whose `/wait` requests answer only when the test releases them. */
async function startServer() {
  const waiting: Array<() => void> = [];
  const arrived: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    const answer = () => res.end('done');
    if (req.url === '/wait' || req.url === '/stream') {
      // `/stream` sends its headers (keep-alive) at once, before any drain starts.
      if (req.url === '/stream') res.writeHead(200).write('part ');
      waiting.push(answer);
      for (const f of arrived.splice(0)) f();
      return;
    }
    answer();
  });
  // No keep-alive timeout: an idle kept-alive socket then stays open until someone closes it, so a
  // drain that resolves `drained` before its deadline proves the drainer closed it.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    port: (server.address() as AddressInfo).port,
    /** Resolves once a `/wait` request is being handled. */
    nextArrival: () => new Promise<void>((resolve) => arrived.push(resolve)),
    release: () => {
      for (const f of waiting.splice(0)) f();
    },
  };
}

function get(port: number, path: string, agent: Agent) {
  return new Promise<{ status: number; body: string; connection?: string }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.on('data', (d) => {
        body += d;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

describe('httpDrainer', () => {
  it('lets an in-flight request finish, closes keep-alive sockets, and resolves right after', async () => {
    const s = await startServer();
    const drainer = httpDrainer(s.server);
    const agent = new Agent({ keepAlive: true });
    const idle = new Agent({ keepAlive: true });
    try {
      // An idle kept-alive socket (another client) and an in-flight request on a keep-alive agent.
      expect((await get(s.port, '/', idle)).body).toBe('done');
      const arrival = s.nextArrival();
      const inFlight = get(s.port, '/wait', agent);
      await arrival;
      expect(drainer.inFlight).toBe(1);

      const closing = drainer.close({ deadlineMs: 10_000 });
      // No new connections once draining.
      await expect(get(s.port, '/', new Agent())).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      s.release();
      const answer = await inFlight;
      expect(answer).toEqual({ status: 200, body: 'done', connection: 'close' });
      // Without closing the sockets that turn idle (kept alive forever here), the drain would run
      // into its deadline: drained false.
      const result = await closing;
      expect(result).toMatchObject({ drained: true, cut: 0 });
      expect(drainer.close({ deadlineMs: 1 })).toBe(closing); // one drain
    } finally {
      agent.destroy();
      idle.destroy();
      s.server.closeAllConnections();
    }
  });

  it('cuts a request still running at the deadline: the client sees the socket close', async () => {
    const s = await startServer();
    const drainer = httpDrainer(s.server);
    const logged: string[] = [];
    try {
      const arrival = s.nextArrival();
      const inFlight = get(s.port, '/wait', new Agent());
      const outcome = inFlight.then(
        () => 'answered',
        (err: NodeJS.ErrnoException) => err.code,
      );
      await arrival;
      const started = Date.now();
      const result = await drainer.close({
        deadlineMs: 300,
        logger: { info: (_o, m) => logged.push(`info ${m}`), warn: (_o, m) => logged.push(`warn ${m}`) },
      });
      const took = Date.now() - started;
      expect(result).toMatchObject({ drained: false, cut: 1 });
      expect(took).toBeGreaterThanOrEqual(290);
      expect(result.ms).toBeGreaterThanOrEqual(290); // the deadline ended it, not a close
      expect(await outcome).toBe('ECONNRESET'); // "socket hang up"
      expect(logged).toEqual([
        'info draining in-flight requests',
        'warn drain deadline passed; cut the requests still in flight (SHUTDOWN_DRAIN_MS)',
      ]);
    } finally {
      s.release();
    }
  });

  it('closes a socket whose response had sent keep-alive headers before the drain, once it ends', async () => {
    const s = await startServer();
    const drainer = httpDrainer(s.server);
    const agent = new Agent({ keepAlive: true });
    try {
      const arrival = s.nextArrival();
      const inFlight = get(s.port, '/stream', agent);
      await arrival;
      const closing = drainer.close({ deadlineMs: 10_000 });
      s.release();
      expect(await inFlight).toEqual({ status: 200, body: 'part done', connection: 'keep-alive' });
      // The socket is kept alive forever here: only the drainer closing it ends the drain early.
      expect(await closing).toMatchObject({ drained: true, cut: 0 });
    } finally {
      agent.destroy();
      s.server.closeAllConnections();
    }
  });

  it('resolves at once with nothing in flight', async () => {
    const s = await startServer();
    const logged: string[] = [];
    const result = await httpDrainer(s.server).close({
      deadlineMs: 10_000,
      logger: { info: (_o, m) => logged.push(`info ${m}`), warn: (_o, m) => logged.push(`warn ${m}`) },
    });
    // Closed by the server, not by the deadline, and nothing was waited for.
    expect(result).toMatchObject({ drained: true, cut: 0 });
    expect(logged).toEqual(['info HTTP server drained']);
  });
});
