import net from 'node:net';
import { type FixtureSite, startFixtureSite } from '@wcs/testing';
import request from 'supertest';
import { createTestAccount, type Stack, startStack } from './harness';

/** Sends raw bytes and resolves with everything the server answered before closing. */
function rawExchange(port: number, bytes: string): Promise<{ answer: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ port, host: '127.0.0.1' }, () => socket.write(bytes));
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve({ answer: Buffer.concat(chunks).toString('utf8') }));
  });
}

let stack: Stack;
let site: FixtureSite;
beforeAll(async () => {
  site = await startFixtureSite();
  stack = await startStack({ env: { REQUEST_TIMEOUT_MS: '1000' } });
});
afterAll(async () => {
  await stack?.close();
  await site?.close();
});

it('a body declared longer than what arrives is cut with 408 REQUEST_TIMEOUT in the error shape', async () => {
  const account = await createTestAccount({ credits: 5 });
  const { answer } = await rawExchange(
    stack.gateway.port,
    `POST /v1/scrape HTTP/1.1\r\nHost: x\r\nAuthorization: ${account.auth.Authorization}\r\n` +
      'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"url":',
  );
  expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
  // Cut by the server's request timeout (REQUEST_TIMEOUT_MS), which the code names.
  expect(body).toEqual({ success: false, error: expect.any(String), code: 'REQUEST_TIMEOUT' });
});

it('malformed framing gets a JSON 400, and the gateway keeps serving', async () => {
  const { answer } = await rawExchange(
    stack.gateway.port,
    'POST /v1/scrape HTTP/1.1\r\nContent-Length: x\r\n\r\n',
  );
  expect(answer).toMatch(/^HTTP\/1\.1 400 /);
  expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
    code: 'VALIDATION_FAILED',
  });
  expect((await request(stack.url).get('/healthz')).status).toBe(200);
});

it('the request timeout bounds only the request: a scrape answering after it is still answered', async () => {
  const account = await createTestAccount({ credits: 5 });
  const res = await request(stack.url)
    .post('/v1/scrape')
    .set(account.auth)
    .send({ url: `${site.url}/slow`, engine: 'fetch', timeout: 3_000 });
  // The page never ends, so the scrape's own 3 s budget answers: the gateway waited past 1 s for it.
  expect(res.status).toBe(504);
  expect(res.body).toMatchObject({ code: 'TIMEOUT' });
});
