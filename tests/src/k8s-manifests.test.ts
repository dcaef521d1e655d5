/**
 * infra/k8s, checked offline: no cluster, no kustomize binary (tests/src/k8s/kustomize.ts renders
 * the subset the manifests use; `kubectl kustomize`, where installed, must agree). Every object is
 * validated with the kubernetes-models / KEDA models and for unknown fields; each Deployment is
 * compared with what the service really is — its image's command, its env schema, its probes, its
 * shutdown deadline — and each KEDA trigger's key with where BullMQ really keeps the waiting jobs,
 * on the test Redis.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { rawEnv } from '@wcs/config';
import { enqueuePages } from '@wcs/crawl-worker/src/page-jobs';
import { migrateDatabase } from '@wcs/db';
import { testDatabaseUrl } from '@wcs/db/src/test-database';
import { loadGatewayEnv, startGateway } from '@wcs/gateway';
import { createLogger } from '@wcs/logger';
import { createRedisConnection, QUEUE_NAMES, type QueueName, QueueProducer } from '@wcs/queues';
import { DEFAULT_SHUTDOWN_DEADLINE_MS, HEALTH_PATHS, startHealthServer } from '@wcs/runtime';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service as K8sService } from 'kubernetes-models/v1/Service';
import { kedaListLength, stallNextJob } from './k8s/keda';
import { find, type K8sObject, parseRendered, renderKustomization, sortObjects } from './k8s/kustomize';
import {
  bytes,
  COMPILED_COMMAND,
  containerEnv,
  cores,
  dockerfile,
  envValues,
  exampleSecret,
  K8S_DIR,
  mainContainer,
  overlays,
  podSpec,
  preStopSeconds,
  probePort,
  ROOT,
  SERVICES,
  type Service,
  WORKERS,
} from './k8s/manifests';
import { unknownFields } from './k8s/unknown-fields';
import { SERVICE_ENV_SCHEMAS } from './service-env-schemas';

const RENDERS = ['base', ...overlays()];
const render = (dir: string) => renderKustomization(path.join(K8S_DIR, dir));
const rendered = Object.fromEntries(RENDERS.map((d) => [d, render(d)])) as Record<string, K8sObject[]>;

/** The model class of each kind the manifests use: `validate()` checks types, enums, required fields. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': K8sService,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
  'keda.sh/v1alpha1/TriggerAuthentication': TriggerAuthentication,
};

/** The queues each KEDA-scaled worker consumes (also read from its source below). */
const SCALED_WORKERS: Partial<Record<Service, QueueName[]>> = {
  'scrape-worker': ['scrape', 'scrape-batch'],
  'crawl-worker': ['crawl', 'crawl-page', 'map'],
  'extract-worker': ['extract'],
};

const SCHEMAS = SERVICE_ENV_SCHEMAS;
const schemaKeys = (service: Service) => new Set(Object.keys(SCHEMAS[service].shape));

type Loader = (env: NodeJS.ProcessEnv) => { [k: string]: unknown };
interface Captured {
  loadEnv: Loader;
  shutdownDeadlineMs?: (env: never) => number;
}

const mains = new Map<Service, Captured>();
/**
 * What services/<name>/src/main.ts hands runService (its env loader and shutdown deadline), read by
 * loading main.ts with runService replaced, so nothing starts.
 */
function mainOf(service: Service): Captured {
  const known = mains.get(service);
  if (known) return known;
  let captured: Captured | undefined;
  jest.isolateModules(() => {
    jest.doMock('@wcs/runtime', () => ({
      ...jest.requireActual('@wcs/runtime'),
      runService: (opts: Captured) => {
        captured = opts;
      },
    }));
    require(path.join(ROOT, 'services', service, 'src/main.ts'));
  });
  jest.dontMock('@wcs/runtime');
  if (!captured) throw new Error(`services/${service}/src/main.ts did not call runService`);
  mains.set(service, captured);
  return captured;
}

/** Variables a service cannot run without: its schema's required ones, plus the stores and probes. */
function requiredKeys(service: Service, keys: Set<string>): string[] {
  const parsed = SCHEMAS[service].safeParse({});
  const missing = parsed.success ? [] : parsed.error.issues.map((i) => String(i.path[0]));
  const deployment = ['REDIS_URL', 'QUEUE_PREFIX', service === 'gateway' ? 'PORT' : 'HEALTH_PORT'];
  if (keys.has('PUBLIC_URL')) deployment.push('PUBLIC_URL');
  return [...new Set([...missing, ...deployment])];
}

describe('infra/k8s renders', () => {
  it.each(RENDERS)(
    '%s: with the subset renderer, every object valid for its model and without unknown fields',
    (dir) => {
      const objects = rendered[dir] as K8sObject[];
      expect(objects.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const o of objects) {
        const kind = `${o.apiVersion}/${o.kind}`;
        const Model = MODELS[kind];
        if (!Model) {
          problems.push(`${kind} ${o.metadata.name}: no model for this kind in the test`);
          continue;
        }
        try {
          new Model(o as never).validate();
        } catch (err) {
          problems.push(`${kind} ${o.metadata.name}: ${String(err)}`);
        }
        for (const f of unknownFields(o)) problems.push(`${o.metadata.name}: unknown field ${f}`);
      }
      expect(problems).toEqual([]);
      const names = objects.map((o) => `${o.kind}/${o.metadata.name}`);
      expect(names.length).toBe(new Set(names).size);
    },
  );

  const kubectl = spawnSync('kubectl', ['version', '--client'], { stdio: 'ignore' }).status === 0;
  (kubectl ? it.each(RENDERS) : it.skip.each(RENDERS))(
    '%s: `kubectl kustomize` renders the same objects',
    (dir) => {
      const out = spawnSync('kubectl', ['kustomize', path.join(K8S_DIR, dir)], { encoding: 'utf8' });
      expect(out.stderr).toBe('');
      expect(sortObjects(rendered[dir] as K8sObject[])).toEqual(sortObjects(parseRendered(out.stdout)));
    },
  );

  it('the example Secret is in no render (an apply never overwrites the real one) but valid', () => {
    const secret = exampleSecret();
    for (const dir of RENDERS)
      expect((rendered[dir] as K8sObject[]).filter((o) => o.kind === 'Secret')).toEqual([]);
    new Secret(secret as never).validate();
    expect(unknownFields(secret)).toEqual([]);
  });

  it('each overlay sets a namespace, real image names and the public URL', () => {
    for (const dir of overlays()) {
      const objects = rendered[dir] as K8sObject[];
      for (const o of objects)
        expect([o.kind, o.metadata.name, o.metadata.namespace]).toEqual([
          o.kind,
          o.metadata.name,
          expect.any(String),
        ]);
      for (const d of objects.filter((o) => o.kind === 'Deployment' || o.kind === 'Job')) {
        const image = mainContainer(d).image ?? '';
        expect([d.metadata.name, image]).toEqual([
          d.metadata.name,
          expect.stringMatching(/\/wcs\/[a-z-]+:[\w.-]+$/),
        ]);
        expect(image).not.toMatch(/:latest$/);
      }
      const pageStore = find(objects, 'ConfigMap', 'wcs-page-store') as unknown as {
        data: Record<string, string>;
      };
      expect(pageStore.data.PUBLIC_URL).toMatch(/^https:\/\//);
    }
  });
});

describe.each(RENDERS)('%s', (dir) => {
  const objects = rendered[dir] as K8sObject[];
  const deployments = objects.filter((o) => o.kind === 'Deployment');

  it('one Deployment per service, named after it, with a PodDisruptionBudget that selects its pods', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const d of deployments) {
      const spec = (d as unknown as Deployment).spec;
      const labels = spec?.template.metadata?.labels ?? {};
      for (const [k, v] of Object.entries(spec?.selector.matchLabels ?? {})) expect(labels[k]).toBe(v);
      const pdb = find(objects, 'PodDisruptionBudget', d.metadata.name) as unknown as PodDisruptionBudget;
      expect(pdb.spec?.selector?.matchLabels).toEqual(spec?.selector.matchLabels);
      // maxUnavailable, so a single replica never blocks a node drain.
      expect(pdb.spec?.maxUnavailable).toBe(1);
      expect(pdb.spec?.minAvailable).toBeUndefined();
    }
  });

  it.each(SERVICES)('%s runs the compiled service the way its image does', (service) => {
    const c = mainContainer(find(objects, 'Deployment', service));
    expect(c.name).toBe(service);
    expect(c.command).toEqual(COMPILED_COMMAND);
    expect(c.args).toBeUndefined();
    expect(c.workingDir).toBe(`/app/services/${service}`);
    expect(existsSync(path.join(ROOT, 'services', service, 'src/main.ts'))).toBe(true);
    const docker = dockerfile(service);
    expect(docker.workdir).toBe(c.workingDir);
    expect(docker.user).toBe('node');
    // The image is built from infra/docker/<name>.Dockerfile: the manifests say what its CMD says.
    expect(docker.cmd).toEqual(COMPILED_COMMAND);
  });

  it.each(SERVICES)(
    '%s: every variable set is one its env schema reads, and every one it needs is set',
    (service) => {
      const c = mainContainer(find(objects, 'Deployment', service));
      const env = containerEnv(objects, c);
      const keys = schemaKeys(service);
      expect([...env.keys()].filter((k) => !keys.has(k))).toEqual([]);
      const required = requiredKeys(service, keys);
      const missing = required.filter((k) => !env.has(k) || env.get(k)?.optional || env.get(k)?.value === '');
      expect(missing).toEqual([]);
      // And the whole environment, with the example Secret's placeholders, passes the service's loader.
      const parsed = mainOf(service).loadEnv(envValues(env));
      expect(parsed.NODE_ENV).toBe('production');
      expect(parsed.LOG_FORMAT).toBe('json');
    },
  );

  it.each(SERVICES)(
    '%s: non-root, read-only root filesystem, no capabilities, a writable /tmp, sized',
    (service) => {
      const d = find(objects, 'Deployment', service);
      const pod = podSpec(d);
      const c = mainContainer(d);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000 });
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(pod.enableServiceLinks).toBe(false);
      expect(c.securityContext).toEqual({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      const tmp = c.volumeMounts?.find((m) => m.mountPath === '/tmp');
      expect(pod.volumes?.find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
      const { requests, limits } = c.resources ?? {};
      for (const r of ['cpu', 'memory'] as const) {
        expect([r, requests?.[r] !== undefined, limits?.[r] !== undefined]).toEqual([r, true, true]);
      }
      expect(bytes(String(requests?.memory))).toBeLessThanOrEqual(bytes(String(limits?.memory)));
      expect(cores(requests?.cpu as string)).toBeLessThanOrEqual(cores(limits?.cpu as string));
      // Sizes from the measured footprint (`pnpm bench:footprint`): idle 60–110 MB, a worker with
      // Chromium and 4 pages up to ~1 GB, the gateway ~200 MB under load.
      const browser = service !== 'gateway' && service !== 'webhook-dispatcher';
      expect(bytes(String(limits?.memory))).toBeGreaterThanOrEqual(
        browser ? 1.5 * 1024 ** 3 : 256 * 1024 ** 2,
      );
      expect(bytes(String(requests?.memory))).toBeGreaterThanOrEqual(128 * 1024 ** 2);
    },
  );

  it.each(SERVICES)(
    '%s: terminationGracePeriodSeconds is longer than the preStop pause plus the shutdown deadline',
    (service) => {
      const d = find(objects, 'Deployment', service);
      const c = mainContainer(d);
      const main = mainOf(service);
      const env = main.loadEnv(envValues(containerEnv(objects, c)));
      const deadlineMs = main.shutdownDeadlineMs?.(env as never) ?? DEFAULT_SHUTDOWN_DEADLINE_MS;
      const grace = podSpec(d).terminationGracePeriodSeconds ?? 30;
      expect(grace).toBeGreaterThan(preStopSeconds(c) + deadlineMs / 1000);
    },
  );

  it('KEDA scales the queue workers, whose Deployments then set no replicas; the others set theirs', () => {
    const scaled = objects.filter((o) => o.kind === 'ScaledObject') as unknown as ScaledObject[];
    expect(scaled.map((s) => s.spec.scaleTargetRef.name).sort()).toEqual(Object.keys(SCALED_WORKERS).sort());
    for (const d of deployments) {
      const replicas = (d as unknown as Deployment).spec?.replicas;
      if (d.metadata.name in SCALED_WORKERS)
        expect([d.metadata.name, replicas]).toEqual([d.metadata.name, undefined]);
      else expect([d.metadata.name, replicas]).toEqual([d.metadata.name, expect.any(Number)]);
    }
  });
});

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

describe('the migration Job', () => {
  it('runs the Prisma CLI of packages/db (the migrate image) with DATABASE_URL, non-root', () => {
    for (const dir of RENDERS) {
      const objects = rendered[dir] as K8sObject[];
      const jobs = objects.filter((o) => o.kind === 'Job');
      expect(jobs.map((j) => j.metadata.name)).toEqual(['wcs-migrate']);
      const job = jobs[0] as K8sObject;
      expect(job.metadata.labels?.['app.kubernetes.io/component']).toBe('migrate');
      const c = mainContainer(job);
      expect(c.workingDir).toBe('/app/packages/db');
      const [node, cli, ...args] = c.command ?? [];
      expect([node, args]).toEqual(['node', ['migrate', 'deploy']]);
      // The CLI the image's `pnpm db:migrate` (packages/db migrate:deploy) runs, installed with @wcs/db.
      expect(existsSync(path.join(ROOT, 'packages/db', cli ?? ''))).toBe(true);
      const db = JSON.parse(readFileSync(path.join(ROOT, 'packages/db/package.json'), 'utf8'));
      expect(db.scripts['migrate:deploy']).toContain('prisma migrate deploy');
      expect(existsSync(path.join(ROOT, 'packages/db/prisma.config.ts'))).toBe(true);
      const docker = dockerfile('migrate');
      expect(docker.text).toMatch(/--filter "@wcs\/db"/);
      // The image's own CMD and WORKDIR.
      expect(c.command).toEqual(docker.cmd);
      expect(c.workingDir).toBe(docker.workdir);
      expect(docker.user).toBe('node');
      expect(c.env?.find((e) => e.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual({
        name: 'wcs-secrets',
        key: 'DATABASE_URL',
      });
      expect(podSpec(job).securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(c.securityContext?.readOnlyRootFilesystem).toBe(true);
      expect(podSpec(job).restartPolicy).toBe('Never');
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
