/**
 * Reading infra/k8s the way the cluster would: the environment a Deployment's container gets, its
 * probes and ports; the Dockerfiles' CMD and WORKDIR; what each service's main.ts hands serviceMain.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICE_NODE_FLAGS, SERVICES, type ServiceName } from '@wcs/runtime';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import { parse } from 'yaml';
import { find, type K8sObject } from './kustomize';

export const ROOT = path.resolve(__dirname, '../../..');
export const K8S_DIR = path.join(ROOT, 'infra/k8s');

export { SERVICES };
export type Service = ServiceName;
export const WORKERS = SERVICES.filter((s) => s !== 'gateway');

/**
 * How every service runs once built by `pnpm build`: node with the flags of
 * SERVICE_NODE_FLAGS (@wcs/runtime, the one list the supervisor, the Dockerfiles and infra/k8s
 * share) and the compiled entry, in services/<name>.
 */
export const COMPILED_COMMAND = ['node', ...SERVICE_NODE_FLAGS, 'dist/main.js'];

/** The overlays: every directory of infra/k8s/overlays. */
export const overlays = () =>
  readdirSync(path.join(K8S_DIR, 'overlays'), { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => `overlays/${d.name}`);

/** The example Secret (not in any kustomization): its keys and placeholder values. */
export function exampleSecret(): K8sObject & { stringData: Record<string, string> } {
  return parse(readFileSync(path.join(K8S_DIR, 'examples/secret.example.yaml'), 'utf8'));
}

export type Container = IContainer;
export type Probe = IProbe;

/** The pod spec of a Deployment or Job. */
export function podSpec(o: K8sObject): IPodSpec {
  const spec = (o as unknown as IDeployment | IJob).spec;
  if (!spec?.template.spec) throw new Error(`${o.kind}/${o.metadata.name}: no pod template`);
  return spec.template.spec;
}
export function mainContainer(o: K8sObject): Container {
  const [c] = podSpec(o).containers;
  if (!c) throw new Error(`${o.kind}/${o.metadata.name}: no container`);
  return c;
}

/** One variable a container gets: its value (secrets: the example Secret's) and whether optional. */
export interface EnvEntry {
  value: string | undefined;
  from: string;
  optional: boolean;
}

/**
 * The environment the container gets: envFrom ConfigMaps/Secrets (in order), then env (which wins),
 * resolved against the rendered objects and the example Secret.
 */
export function containerEnv(objects: K8sObject[], c: Container): Map<string, EnvEntry> {
  const secret = exampleSecret();
  const secrets = new Map([[secret.metadata.name, secret.stringData]]);
  const out = new Map<string, EnvEntry>();
  for (const src of c.envFrom ?? []) {
    if (src.configMapRef) {
      const cm = find(objects, 'ConfigMap', src.configMapRef.name ?? '') as unknown as IConfigMap & K8sObject;
      for (const [k, v] of Object.entries(cm.data ?? {}))
        out.set(k, { value: String(v), from: `configmap/${cm.metadata.name}`, optional: false });
    } else if (src.secretRef) {
      const data = secrets.get(src.secretRef.name ?? '');
      if (!data) throw new Error(`no Secret ${src.secretRef.name}`);
      for (const [k, v] of Object.entries(data))
        out.set(k, { value: v, from: `secret/${src.secretRef.name}`, optional: false });
    } else {
      throw new Error(`${c.name}: envFrom of an unknown kind`);
    }
  }
  for (const e of c.env ?? []) {
    if (e.value !== undefined) {
      out.set(e.name, { value: e.value, from: 'literal', optional: false });
    } else if (e.valueFrom?.secretKeyRef) {
      const ref = e.valueFrom.secretKeyRef;
      const data = secrets.get(ref.name ?? '');
      if (!data)
        throw new Error(
          `${c.name}: ${e.name} refers to Secret ${ref.name}, which is not ${secret.metadata.name}`,
        );
      if (!(ref.key in data))
        throw new Error(`${c.name}: ${e.name} refers to ${ref.name}/${ref.key}, a key the example lacks`);
      out.set(e.name, {
        value: data[ref.key],
        from: `secret/${ref.name}/${ref.key}`,
        optional: ref.optional === true,
      });
    } else if (e.valueFrom?.configMapKeyRef) {
      const ref = e.valueFrom.configMapKeyRef;
      const cm = find(objects, 'ConfigMap', ref.name ?? '') as unknown as IConfigMap;
      out.set(e.name, {
        value: cm.data?.[ref.key],
        from: `configmap/${ref.name}/${ref.key}`,
        optional: ref.optional === true,
      });
    } else {
      throw new Error(`${c.name}: ${e.name} has neither a value nor a secret/configmap reference`);
    }
  }
  return out;
}

/** `env` of an object literal, for a service's loadEnv (empty optional secrets left out). */
export function envValues(env: Map<string, EnvEntry>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, e] of env) if (e.value !== undefined && !(e.optional && e.value === '')) out[k] = e.value;
  return out;
}

/** The last WORKDIR and the exec-form CMD of a Dockerfile of infra/docker. */
export function dockerfile(name: string): { workdir: string; cmd: string[]; user?: string; text: string } {
  const text = readFileSync(path.join(ROOT, 'infra/docker', `${name}.Dockerfile`), 'utf8');
  const lines = text.split('\n').map((l) => l.trim());
  const last = (instr: string) =>
    lines
      .filter((l) => l.toUpperCase().startsWith(`${instr} `))
      .map((l) => l.slice(instr.length + 1).trim())
      .at(-1);
  const cmd = last('CMD');
  if (!cmd?.startsWith('[')) throw new Error(`${name}.Dockerfile: CMD is not in exec form`);
  return { workdir: last('WORKDIR') ?? '/', cmd: JSON.parse(cmd) as string[], user: last('USER'), text };
}

/** A probe's port as a number (a named port resolved against the container's ports). */
export function probePort(c: Container, probe: Probe): number {
  const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
  if (typeof port === 'number') return port;
  const named = c.ports?.find((p) => p.name === port);
  if (!named) throw new Error(`${c.name}: probe port ${port} is not a container port`);
  return named.containerPort;
}

/** Seconds a preStop hook takes before SIGTERM (`sleep N` or the sleep action; 0 without one). */
export function preStopSeconds(c: Container): number {
  const hook = c.lifecycle?.preStop;
  if (!hook) return 0;
  if (hook.sleep) return Number(hook.sleep.seconds);
  const cmd = hook.exec?.command as string[] | undefined;
  if (cmd?.[0] === 'sleep' && cmd.length === 2) return Number(cmd[1]);
  throw new Error(`${c.name}: a preStop hook whose length is unknown`);
}

/** Parse a Kubernetes memory quantity (Mi, Gi, M, G, plain bytes) into bytes. */
export function bytes(q: string): number {
  const m = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(q);
  if (!m) throw new Error(`unknown quantity ${q}`);
  const unit = { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, K: 1e3, M: 1e6, G: 1e9 }[m[2] ?? ''] ?? 1;
  return Number(m[1]) * unit;
}

/** Parse a CPU quantity ("500m", "2") into cores. */
export const cores = (q: string | number): number =>
  typeof q === 'number' ? q : q.endsWith('m') ? Number(q.slice(0, -1)) / 1000 : Number(q);
