/**
 * infra/k8s against the running parts: each Deployment's probes reach the probe server (or the
 * gateway) its env starts, and each KEDA trigger's key is where BullMQ really keeps the waiting jobs,
 * on the test Redis. The offline checks of the manifests are in k8s-manifests.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { rawEnv } from '@wcs/config';
import { enqueuePages } from '@wcs/crawl-worker/src/page-jobs';
import { migrateDatabase } from '@wcs/db';
import { testDatabaseUrl } from '@wcs/db/src/test-support/test-database';
import { loadGatewayEnv, startGateway } from '@wcs/gateway';
import { createLogger } from '@wcs/logger';
import { createRedisConnection, QUEUE_NAMES, type QueueName, QueueProducer } from '@wcs/queues';
import { HEALTH_PATHS, startHealthServer } from '@wcs/runtime';
import type { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import type { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { Service as K8sService } from 'kubernetes-models/v1/Service';
import { kedaListLength, stallNextJob } from './k8s/keda';
import { find, type K8sObject } from './k8s/kustomize';
import {
  containerEnv,
  envValues,
  exampleSecret,
  mainContainer,
  probePort,
  ROOT,
  type Service,
  WORKERS,
} from './k8s/manifests';
import { mainOf, RENDERS, rendered, SCALED_WORKERS } from './k8s/renders';

describe('probes', () => {
  const objects = rendered.base as K8sObject[];

  it.each(WORKERS)('%s: readiness and liveness on the probe server its env starts', async (service) => {
    const c = mainContainer(find(objects, 'Deployment', service));
    const env = mainOf(service).loadEnv(envValues(containerEnv(objects, c)));
    const ready = c.readinessProbe;
    const live = c.livenessProbe;
    expect(ready?.httpGet?.path).toBe(HEALTH_PATHS.readiness);
    expect(live?.httpGet?.path).toBe(HEALTH_PATHS.liveness);
    expect(probePort(c, ready ?? {})).toBe(env.HEALTH_PORT);
    expect(probePort(c, live ?? {})).toBe(env.HEALTH_PORT);
    expect(env.HEALTH_HOST).toBe('0.0.0.0');
    // The server runService starts for this env (on a free port here), asked the probes' paths.
    const health = await startHealthServer({ port: 0, host: '127.0.0.1' });
    const get = async (p: string) => (await fetch(`http://127.0.0.1:${health.port}${p}`)).status;
    try {
      expect(await get(ready?.httpGet?.path ?? '')).toBe(503);
      expect(await get(live?.httpGet?.path ?? '')).toBe(200);
      health.markReady();
      expect(await get(ready?.httpGet?.path ?? '')).toBe(200);
    } finally {
      await health.close();
    }
  });

  it('gateway: readiness /healthz and liveness on PORT, and liveness holds while PostgreSQL is down', async () => {
    const c = mainContainer(find(objects, 'Deployment', 'gateway'));
    const env = containerEnv(objects, c);
    const port = Number(env.get('PORT')?.value);
    expect(c.ports?.find((p) => p.name === 'http')?.containerPort).toBe(port);
    for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe])
      expect(probePort(c, probe ?? {})).toBe(port);
    expect(c.readinessProbe?.httpGet?.path).toBe('/healthz');
    const livePath = c.livenessProbe?.httpGet?.path ?? '';
    expect(c.startupProbe?.httpGet?.path).toBe(livePath);

    // The real gateway with the manifest's environment (stores: the test's; any free port).
    const url = testDatabaseUrl();
    await migrateDatabase(url);
    const values = {
      ...envValues(env),
      DATABASE_URL: url,
      REDIS_URL: rawEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379',
      QUEUE_PREFIX: `k8s-gw-${process.pid}`,
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
    };
    const gateway = await startGateway(
      loadGatewayEnv(values),
      createLogger({ service: 'test', level: 'silent' }),
    );
    const get = async (p: string) => (await fetch(`http://127.0.0.1:${gateway.port}${p}`)).status;
    try {
      expect(await get('/healthz')).toBe(200);
      expect(await get(livePath)).toBe(200);
      // PostgreSQL down: not ready (out of the Service), but alive (no restart of every gateway).
      gateway.deps.pingDatabase = () => Promise.reject(new Error('connection refused'));
      expect(await get('/healthz')).toBe(503);
      expect(await get(livePath)).toBe(200);
    } finally {
      await gateway.close();
    }
  });

  it('the gateway Service and the Ingress reach the gateway pods by its named port', () => {
    for (const dir of RENDERS) {
      const objects = rendered[dir] as K8sObject[];
      const svc = find(objects, 'Service', 'gateway') as unknown as K8sService;
      const pods =
        (find(objects, 'Deployment', 'gateway') as unknown as Deployment).spec?.template.metadata?.labels ??
        {};
      for (const [k, v] of Object.entries(svc.spec?.selector ?? {})) expect(pods[k]).toBe(v);
      const portNames = (mainContainer(find(objects, 'Deployment', 'gateway')).ports ?? []).map(
        (p) => p.name,
      );
      for (const p of svc.spec?.ports ?? []) expect(portNames).toContain(p.targetPort);
      for (const ing of objects.filter((o) => o.kind === 'Ingress') as unknown as Ingress[]) {
        for (const rule of ing.spec?.rules ?? []) {
          for (const p of rule.http?.paths ?? []) {
            expect(p.backend.service?.name).toBe('gateway');
            expect((svc.spec?.ports ?? []).map((sp) => sp.name)).toContain(p.backend.service?.port?.name);
          }
        }
      }
    }
  });
});

describe('KEDA', () => {
  const objects = rendered.base as K8sObject[];
  const prefix = (find(objects, 'ConfigMap', 'wcs-common') as unknown as ConfigMap).data?.QUEUE_PREFIX ?? '';
  const scaled = objects.filter((o) => o.kind === 'ScaledObject') as unknown as ScaledObject[];

  /** Each trigger of a worker's ScaledObject: queue, BullMQ key suffix, key as written. */
  const triggersOf = (so: ScaledObject) =>
    so.spec.triggers.map((t) => {
      const key = t.metadata.listName ?? '';
      const m = /^(.+):([a-z-]+):(wait|prioritized)$/.exec(key);
      return { trigger: t, key, prefix: m?.[1], queue: m?.[2] as QueueName, suffix: m?.[3] };
    });

  it('each trigger reads a waiting key of a queue its worker consumes, under the ConfigMap prefix; every such queue is covered', () => {
    expect(prefix).not.toBe('');
    for (const so of scaled) {
      const worker = so.spec.scaleTargetRef.name as Service;
      const queues = SCALED_WORKERS[worker] ?? [];
      // The queues the worker's source defines workers for (define('…') / workerDefiner(…)('…')).
      const src = path.join(ROOT, 'services', worker, 'src');
      const defined = new Set<string>();
      for (const f of require('node:fs').readdirSync(src) as string[]) {
        if (!f.endsWith('.ts') || f.endsWith('.test.ts')) continue;
        const text = readFileSync(path.join(src, f), 'utf8');
        for (const m of text.matchAll(/(?:\bdefine|workerDefiner\([^)]*\))\(\s*'([a-z-]+)'/g))
          defined.add(m[1] as string);
      }
      expect([worker, [...defined].sort()]).toEqual([worker, [...queues].sort()]);
      const triggers = triggersOf(so);
      for (const t of triggers) {
        expect(t.trigger.type).toBe('redis');
        expect([t.key, t.prefix]).toEqual([t.key, prefix]);
        expect(QUEUE_NAMES).toContain(t.queue);
        expect(queues).toContain(t.queue);
        expect(Number(t.trigger.metadata.listLength)).toBeGreaterThan(0);
        expect(t.trigger.authenticationRef?.name).toBe('wcs-redis');
      }
      for (const q of queues)
        expect(triggers.filter((t) => t.queue === q && t.suffix === 'wait')).toHaveLength(1);
      expect(so.spec.maxReplicaCount ?? 0).toBeGreaterThan(so.spec.minReplicaCount ?? 0);
    }
    // Interactive queues keep a replica for latency; extract scales from zero.
    const min = Object.fromEntries(scaled.map((s) => [s.spec.scaleTargetRef.name, s.spec.minReplicaCount]));
    expect(min).toEqual({ 'scrape-worker': 1, 'crawl-worker': 1, 'extract-worker': 0 });
  });

  it('the TriggerAuthentication reads the Redis address and password from the Secret, consistent with REDIS_URL', () => {
    const auth = find(objects, 'TriggerAuthentication', 'wcs-redis') as unknown as TriggerAuthentication;
    const secret = exampleSecret();
    const refs = auth.spec?.secretTargetRef ?? [];
    expect(refs.map((r) => r.parameter).sort()).toEqual(['address', 'password']);
    for (const r of refs) {
      expect(r.name).toBe(secret.metadata.name);
      expect(secret.stringData).toHaveProperty([r.key]);
    }
    const value = (param: string) => secret.stringData[refs.find((r) => r.parameter === param)?.key ?? ''];
    const redis = new URL(secret.stringData.REDIS_URL ?? '');
    expect(value('address')).toBe(`${redis.hostname}:${redis.port || '6379'}`);
    expect(value('password')).toBe(decodeURIComponent(redis.password));
    expect(redis.pathname.replace('/', '') || '0').toBe('0');
  });

  describe('the keys are where BullMQ keeps the waiting jobs (test Redis)', () => {
    const redisUrl = rawEnv('REDIS_URL') ?? 'redis://127.0.0.1:6379';
    const testPrefix = `k8s-keda-${process.pid}-${Date.now()}`;
    const redis = createRedisConnection(redisUrl, 'worker');
    const producer = new QueueProducer(redisUrl, testPrefix);
    /** The trigger's key under this test's own prefix (the manifest's prefix checked above). */
    const keyOf = (key: string) => `${testPrefix}${key.slice(prefix.length)}`;

    afterAll(async () => {
      for (const q of QUEUE_NAMES)
        await producer
          .queue(q)
          .obliterate({ force: true })
          .catch(() => undefined);
      let cursor = '0';
      do {
        const [next, keys] = await redis.scan(cursor, 'MATCH', `${testPrefix}:*`, 'COUNT', 500);
        if (keys.length > 0) await redis.del(...keys);
        cursor = next;
      } while (cursor !== '0');
      await producer.close();
      redis.disconnect();
    });

    /** What KEDA reads for a queue: the sum over the worker's triggers on it. */
    async function kedaCount(queue: QueueName): Promise<Record<string, number>> {
      const out: Record<string, number> = {};
      for (const so of scaled) {
        for (const t of triggersOf(so).filter((x) => x.queue === queue)) {
          out[t.suffix ?? ''] = await kedaListLength(redis, keyOf(t.key));
        }
      }
      return out;
    }

    const now = Date.now();
    const enqueue: Record<string, () => Promise<unknown>> = {
      // As the gateway's routes and the crawl worker add them (our producer and catalog).
      scrape: () =>
        producer.enqueue(
          'scrape',
          {
            requestId: 'r1',
            accountId: 'a1',
            url: 'https://example.com/',
            format: 'markdown',
            onlyMainContent: true,
            timeoutMs: 60_000,
            deadlineAt: now + 65_000,
          },
          { jobId: 'r1' },
        ),
      'scrape-batch': () =>
        producer.enqueueBulk('scrape-batch', [
          { payload: { batchId: 'b1', itemId: 'i1' }, opts: { jobId: 'i1' } },
        ]),
      crawl: () => producer.enqueue('crawl', { crawlId: 'c1' }, { jobId: 'c1' }),
      'crawl-page': () =>
        enqueuePages(producer, 'c1', [{ pageId: 'p1', url: 'https://example.com/a', depth: 1 }]),
      map: () =>
        producer.enqueue(
          'map',
          {
            requestId: 'm1',
            accountId: 'a1',
            url: 'https://example.com/',
            maxUrls: 100,
            timeoutMs: 30_000,
            deadlineAt: now + 35_000,
          },
          { jobId: 'm1' },
        ),
      extract: () =>
        producer.enqueue(
          'extract',
          {
            requestId: 'e1',
            accountId: 'a1',
            url: 'https://example.com/',
            prompt: 'title',
            timeoutMs: 90_000,
            deadlineAt: now + 95_000,
          },
          { jobId: 'e1' },
        ),
    };

    it.each(Object.values(SCALED_WORKERS).flat())(
      '%s: one waiting job is counted once, as BullMQ counts it',
      async (queue) => {
        expect(await kedaCount(queue)).toEqual(expect.objectContaining({ wait: 0 }));
        await (enqueue[queue] as () => Promise<unknown>)();
        const counts = await producer.queue(queue).getJobCounts('wait', 'prioritized');
        expect((counts.wait ?? 0) + (counts.prioritized ?? 0)).toBe(1);
        const keda = await kedaCount(queue);
        expect(Object.values(keda).reduce((a, b) => a + b, 0)).toBe(1);
        // Where it is: crawl pages carry a priority (breadth first) and wait in the sorted set.
        if (queue === 'crawl-page') {
          expect(keda).toEqual({ prioritized: 1, wait: 0 });
          expect(await redis.type(keyOf(`${prefix}:crawl-page:prioritized`))).toBe('zset');
        } else {
          expect(keda.wait).toBe(1);
          expect(await redis.type(keyOf(`${prefix}:${queue}:wait`))).toBe('list');
        }
      },
    );

    it('a crawl page a dead worker left behind comes back to crawl-page:wait, which is counted too', async () => {
      const id = await stallNextJob(redisUrl, testPrefix, 'crawl-page');
      expect(id).toBe('p1');
      expect(await kedaCount('crawl-page')).toEqual({ prioritized: 0, wait: 1 });
    });
  });
});
