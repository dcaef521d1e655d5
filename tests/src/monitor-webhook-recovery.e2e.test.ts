/**
 * A change whose webhook job is lost (Redis down when the check tried to enqueue it, or restarted
 * empty before the dispatcher ran) is still delivered, once: the monitor-scheduler's sweep finds
 * changes without a delivery attempt and enqueues them again under the same job id.
 */
import http from 'node:http';
import { createLogger } from '@wcs/logger';
import { QueueProducer } from '@wcs/queues';
import { listenLocal } from '@wcs/testing';
import {
  loadWebhookDispatcherEnv,
  type RunningWebhookDispatcher,
  startWebhookDispatcher,
} from '@wcs/webhook-dispatcher';
import request from 'supertest';
import { createTestAccount, pollUntil, type Stack, startStack } from './harness';

/** hourly = 2 s in this file. */
const SCALE = String(2_000 / 3_600_000);

const page = (price: string) =>
  `<!doctype html><html><head><title>Pricing</title></head><body><main><h1>Prices</h1><p>The basic plan costs ${price} dollars per month and includes email support for every customer.</p></main></body></html>`;

it('a change whose webhook job was lost is delivered by the sweep, exactly once', async () => {
  let body = page('ten');
  const site = await listenLocal(
    http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body)),
  );
  const received: Array<{ monitorId: string; snapshot: string }> = [];
  const receiver = await listenLocal(
    http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200).end('ok');
      });
    }),
  );
  // No dispatcher yet: the change's webhook job waits in Redis, where the test then loses it.
  const stack: Stack = await startStack({
    monitorScheduler: true,
    worker: false,
    env: {
      MONITOR_INTERVAL_SCALE: SCALE,
      MONITOR_RESUME_SWEEP_MS: '200',
      MONITOR_WEBHOOK_RECOVERY_MS: '1000',
    },
  });
  const producer = new QueueProducer(stack.env.REDIS_URL!, stack.env.QUEUE_PREFIX!);
  const webhooks = producer.queue('webhook');
  let dispatcher: RunningWebhookDispatcher | null = null;
  const account = await createTestAccount({ credits: 100 });
  let monitorId = '';
  try {
    const created = await request(stack.url)
      .post('/v1/monitor')
      .set(account.auth)
      .send({ url: `${site.url}/pricing`, interval: 'hourly', webhookUrl: `${receiver.url}/hook` })
      .expect(201);
    monitorId = created.body.data.id as string;
    const detail = async () =>
      (await request(stack.url).get(`/v1/monitor/${monitorId}`).set(account.auth).expect(200)).body.data as {
        checkCount: number;
        changes: Array<{ id: string }>;
        webhookDeliveries: Array<{ changeId: string; statusCode: number | null }>;
      };
    await pollUntil(async () => ((await detail()).checkCount >= 1 ? true : undefined), 15_000);
    body = page('twelve');
    const change = await pollUntil(async () => (await detail()).changes[0], 15_000);

    // Lose the job, as a Redis restart without persistence would.
    const jobId = `change-${change.id}`;
    await pollUntil(async () => ((await webhooks.getJob(jobId)) ? true : undefined), 30_000);
    await webhooks.remove(jobId);

    dispatcher = await startWebhookDispatcher(
      loadWebhookDispatcherEnv(stack.env),
      createLogger({ service: 'test', level: 'silent' }),
    );
    const delivered = await pollUntil(
      async () => (await detail()).webhookDeliveries.find((d) => d.changeId === change.id),
      15_000,
    );
    expect(delivered.statusCode).toBe(200);
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ monitorId, snapshot: expect.stringContaining('twelve dollars') });

    // Delivered changes are never enqueued again.
    await stack.monitorScheduler!.sweep.runOnce();
    expect(await webhooks.getJobCounts('waiting', 'active', 'delayed')).toEqual({
      waiting: 0,
      active: 0,
      delayed: 0,
    });
    expect(received).toHaveLength(1);
  } finally {
    if (monitorId) await request(stack.url).delete(`/v1/monitor/${monitorId}`).set(account.auth);
    await dispatcher?.close();
    await producer.close();
    await stack.close();
    await Promise.all([site.close(), receiver.close()]);
  }
});
