/**
 * The one-process mode starts the gateway beside its workers (services/one-process): /healthz must
 * not say 200 before every service runs. The gate is the gateway's `servicesStarted`.
 */
import { rawEnv } from '@wcs/config';
import { migrateDatabase } from '@wcs/db';
import { testDatabaseUrl } from '@wcs/db/src/test-support/test-database';
import { loadGatewayEnv, startGateway } from '@wcs/gateway';
import { createLogger } from '@wcs/logger';

it('/healthz is 503 until the services beside the gateway have started, then 200', async () => {
  const url = testDatabaseUrl();
  await migrateDatabase(url);
  let started = false;
  const gateway = await startGateway(
    loadGatewayEnv({
      DATABASE_URL: url,
      REDIS_URL: rawEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `gw-started-${process.pid}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    }),
    createLogger({ service: 'test', level: 'silent' }),
    { servicesStarted: () => started },
  );
  const health = async () => {
    const res = await fetch(`http://127.0.0.1:${gateway.port}/healthz`);
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  try {
    expect(await health()).toEqual({ status: 503, body: { ok: false, starting: true } });
    started = true;
    expect(await health()).toEqual({ status: 200, body: { ok: true, database: true, redis: true } });
  } finally {
    await gateway.close();
  }
});
