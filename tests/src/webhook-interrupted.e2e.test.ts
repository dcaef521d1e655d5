/**
 * A webhook job re-delivered after its dispatcher died mid-delivery (BullMQ: stalledCounter > 0)
 * must not POST again — the receiver may already have it (one POST, never retried) — and records
 * the attempt as interrupted. A first delivery still sends. `pnpm test:faults` kills a real
 * dispatcher mid-POST; this pins the rule in the default run.
 */
import http from 'node:http';
import { AccountsRepository, createDb, MonitorsRepository, WebhookDeliveriesRepository } from '@wcs/db';
import { createLogger } from '@wcs/logger';
import { createSafeDispatcher } from '@wcs/net';
import { listenLocal } from '@wcs/testing';
import { INTERRUPTED_DELIVERY, webhookProcessor } from '@wcs/webhook-dispatcher';
import { TEST_DATABASE_URL } from './harness';

it('a stalled webhook job records an interrupted attempt and sends nothing; a fresh one sends once', async () => {
  const posts: string[] = [];
  const receiver = await listenLocal(
    http.createServer((req, res) => {
      posts.push(req.url ?? '');
      req.resume();
      req.on('end', () => res.writeHead(200).end('ok'));
    }),
  );
  const db = createDb(TEST_DATABASE_URL);
  const dispatcher = createSafeDispatcher({ allowPrivateTargets: true, connectTimeoutMs: 2_000 });
  try {
    const account = await new AccountsRepository(db).create({ plan: 'free', credits: 1 });
    const monitors = new MonitorsRepository(db);
    const m = await monitors.create({
      accountId: account.accountId,
      url: 'http://127.0.0.1:9/page',
      interval: 'weekly',
      webhookUrl: `${receiver.url}/hook`,
      jitterMs: 0,
    });
    // Cancelled at once: only the dispatcher's processor is under test, no scheduler runs it.
    await monitors.cancel(account.accountId, m.id);
    const change = () =>
      db.prisma.monitorChange.create({ data: { monitorId: m.id, hash: 'a'.repeat(64), snapshot: 'text' } });
    const process = webhookProcessor(
      {
        deliveries: new WebhookDeliveriesRepository(db),
        dispatcher,
        logger: createLogger({ service: 'test', level: 'silent' }),
      },
      { timeoutMs: 2_000, allowPrivateTargets: true, userAgent: 'test' },
    );

    const stalled = await change();
    expect(await process({ changeId: stalled.id }, { stalledCounter: 1 })).toEqual({
      sent: false,
      reason: 'interrupted',
    });
    expect(posts).toHaveLength(0);
    const recorded = await db.prisma.webhookDelivery.findUnique({ where: { changeId: stalled.id } });
    expect(recorded).toMatchObject({ statusCode: null, error: INTERRUPTED_DELIVERY });
    // Any later delivery of the same change is already attempted.
    expect(await process({ changeId: stalled.id }, { stalledCounter: 0 })).toEqual({
      sent: false,
      reason: 'already_attempted',
    });

    const fresh = await change();
    expect(await process({ changeId: fresh.id }, { stalledCounter: 0 })).toMatchObject({
      sent: true,
      statusCode: 200,
    });
    expect(posts).toEqual(['/hook']);
  } finally {
    await dispatcher.close();
    await db.close();
    await receiver.close();
  }
});
