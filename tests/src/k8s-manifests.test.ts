/**
 * infra/k8s, checked offline: no cluster, no kustomize binary (tests/src/k8s/kustomize.ts renders
 * the subset the manifests use; `kubectl kustomize`, where installed, must agree). Every object is
 * validated with the kubernetes-models / KEDA models and for unknown fields; each Deployment is
 * compared with what the service really is — its image's command, its env schema, its shutdown
 * deadline. Probes and KEDA keys against running parts: k8s-runtime.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { gatewayEnvSchema } from '@wcs/gateway';
import { DEFAULT_SHUTDOWN_DEADLINE_MS } from '@wcs/runtime';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service as K8sService } from 'kubernetes-models/v1/Service';
import { find, type K8sObject, parseRendered, sortObjects } from './k8s/kustomize';
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
  ROOT,
  SERVICES,
  type Service,
} from './k8s/manifests';
import { mainOf, RENDERS, rendered, SCALED_WORKERS } from './k8s/renders';
import { unknownFields } from './k8s/unknown-fields';
import { SERVICE_ENV_SCHEMAS } from './service-env-schemas';

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

const SCHEMAS = SERVICE_ENV_SCHEMAS;
const schemaKeys = (service: Service) => new Set(Object.keys(SCHEMAS[service].shape));

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
      // Behind the Ingress: the client address comes from the controller's X-Forwarded-For.
      const gatewayConfig = find(objects, 'ConfigMap', 'wcs-gateway') as unknown as {
        data: Record<string, string>;
      };
      const trust = gatewayEnvSchema.shape.TRUST_PROXY.parse(gatewayConfig.data.TRUST_PROXY);
      expect([dir, trust]).not.toEqual([dir, false]);
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
