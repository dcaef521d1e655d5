import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { loadGatewayEnv, type RunningGateway, startGateway } from '@wcs/gateway';
import { createLogger } from '@wcs/logger';
import { createTestAccount, TEST_DATABASE_URL, TEST_REDIS_URL } from './harness';

/**
 * TRUST_PROXY through real HTTP requests to the gateway, sent from 127.0.0.1 as a proxy in front of
 * it would: which address the sign-in throttle counts and the access log names, and when the
 * session cookie is Secure. Off by default: a client's own X-Forwarded-For must not pick its bucket.
 */

const LIMIT = 2;

interface Gateway {
  url: string;
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

const running: RunningGateway[] = [];

async function gateway(trustProxy?: string): Promise<Gateway> {
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const env = loadGatewayEnv({
    DATABASE_URL: TEST_DATABASE_URL,
    REDIS_URL: TEST_REDIS_URL,
    // Its own throttle scope: every gateway here starts with empty sign-in counts.
    QUEUE_PREFIX: `tp-${randomUUID().slice(0, 8)}`,
    PORT: '0',
    HOST: '127.0.0.1',
    DASHBOARD_SIGNIN_ATTEMPTS_PER_MINUTE: String(LIMIT),
    ...(trustProxy === undefined ? {} : { TRUST_PROXY: trustProxy }),
  });
  const g = await startGateway(env, createLogger({ service: 'test', level: 'info' }, sink));
  running.push(g);
  return { url: `http://127.0.0.1:${g.port}`, logs, close: () => g.close() };
}

afterAll(async () => {
  for (const g of running) await g.close();
});

const WRONG_KEY = `wcs_${'0'.repeat(40)}`;

function signIn(g: Gateway, headers: Record<string, string>, apiKey = WRONG_KEY): Promise<Response> {
  return fetch(`${g.url}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': randomUUID(), ...headers },
    body: JSON.stringify({ apiKey }),
  });
}

/** Statuses of `n` failed sign-ins, one after another, each with its own headers. */
async function failures(g: Gateway, headers: Array<Record<string, string>>): Promise<number[]> {
  const out: number[] = [];
  for (const h of headers) out.push((await signIn(g, h)).status);
  return out;
}

/** The access log line of the request that carried this X-Request-Id. */
async function logged(g: Gateway, headers: Record<string, string>): Promise<Record<string, unknown>> {
  const id = randomUUID();
  await signIn(g, { ...headers, 'x-request-id': id });
  // pino-http writes the line when the response finishes: it is in the sink by the time the
  // next request has been answered.
  await fetch(`${g.url}/healthz`);
  const line = g.logs.find((l) => (l.req as { id?: string } | undefined)?.id === id);
  if (!line) throw new Error(`no access log line for request ${id}`);
  return line.req as Record<string, unknown>;
}

const xff = (v: string) => ({ 'x-forwarded-for': v });
const LOOPBACK = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

describe('TRUST_PROXY unset (the default): X-Forwarded-* are ignored', () => {
  it('the throttle counts the connecting address, whatever X-Forwarded-For a client sends', async () => {
    const g = await gateway();
    const statuses = await failures(g, [xff('203.0.113.1'), xff('203.0.113.2'), xff('203.0.113.3')]);
    expect(statuses).toEqual([401, 401, 429]);
    expect((await logged(g, xff('203.0.113.9'))).remoteAddress).toMatch(LOOPBACK);
  });
});

describe('TRUST_PROXY names the proxy (addresses, subnets, range names)', () => {
  it('loopback: each forwarded client has its own throttle bucket and its own address in the log', async () => {
    const g = await gateway('loopback');
    expect(await failures(g, [xff('203.0.113.1'), xff('203.0.113.1'), xff('203.0.113.1')])).toEqual([
      401, 401, 429,
    ]);
    expect(await failures(g, [xff('203.0.113.2')])).toEqual([401]);
    const req = await logged(g, xff('203.0.113.7'));
    expect(req.remoteAddress).toBe('203.0.113.7');
  });

  it('a subnet the connecting address is not in: the headers are ignored', async () => {
    const g = await gateway('10.0.0.0/8');
    expect(await failures(g, [xff('203.0.113.1'), xff('203.0.113.2'), xff('203.0.113.3')])).toEqual([
      401, 401, 429,
    ]);
    expect((await logged(g, xff('203.0.113.9'))).remoteAddress).toMatch(LOOPBACK);
  });
});

describe('TRUST_PROXY as a hop count', () => {
  it('1: the address the one proxy appended counts; what the client put before it does not', async () => {
    const g = await gateway('1');
    // A client rotating a forged first entry stays in the bucket of the address the proxy saw.
    const forged = ['198.51.100.1', '198.51.100.2', '198.51.100.3'].map((f) => xff(`${f}, 203.0.113.5`));
    expect(await failures(g, forged)).toEqual([401, 401, 429]);
    expect(await failures(g, [xff('198.51.100.1, 203.0.113.6')])).toEqual([401]);
    expect((await logged(g, xff('198.51.100.4, 203.0.113.8'))).remoteAddress).toBe('203.0.113.8');
  });
});

describe('the session cookie behind a TLS-terminating proxy', () => {
  it('Secure when the trusted proxy says https; not Secure over plain http', async () => {
    const g = await gateway('loopback');
    const acct = await createTestAccount({ credits: 1 });
    const viaTls = await signIn(g, { 'x-forwarded-proto': 'https', ...xff('203.0.113.20') }, acct.apiKey);
    expect(viaTls.status).toBe(200);
    expect(viaTls.headers.get('set-cookie')).toMatch(/;\s*Secure/i);
    const plain = await signIn(g, xff('203.0.113.21'), acct.apiKey);
    expect(plain.status).toBe(200);
    expect(plain.headers.get('set-cookie')).not.toMatch(/;\s*Secure/i);
  });
});
