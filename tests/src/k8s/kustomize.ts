/**
 * The part of kustomize that infra/k8s uses, so the tests render the manifests with no kustomize
 * binary: `resources` (files and directories with a kustomization.yaml), `namespace`, `images`,
 * `replicas` and `patches` (a strategic merge patch of a built-in kind, or a JSON 6902 patch with
 * a `target`). Any other field or patch directive throws, which keeps the overlays inside this
 * subset. Where `kubectl` is installed, k8s-manifests.test.ts checks that `kubectl kustomize`
 * renders the same objects.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown };
  [key: string]: unknown;
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

const KUSTOMIZATION_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'namespace',
  'images',
  'replicas',
  'patches',
]);

/** Kinds the namespace transformer leaves alone (cluster-scoped) — those infra/k8s could use. */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'StorageClass',
  'PriorityClass',
  'IngressClass',
  'ClusterTriggerAuthentication',
]);

/** Kinds whose `spec.replicas` the replicas field sets. */
const SCALABLE = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'ReplicationController']);

/** Patch merge keys of the lists a strategic merge patch of a pod template may touch. */
const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  ports: 'containerPort',
  imagePullSecrets: 'name',
};

/** API groups whose kinds take strategic merge patches (others, e.g. KEDA's, take JSON merge). */
const BUILT_IN_GROUPS = new Set(['', 'apps', 'batch', 'policy', 'networking.k8s.io', 'autoscaling']);

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? (apiVersion.split('/')[0] ?? '') : '');
const clone = <T>(v: T): T => structuredClone(v);

function readYamlDocs(file: string): unknown[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'));
  const out: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

function asObject(value: unknown, where: string): K8sObject {
  if (!isObject(value) || typeof value.kind !== 'string' || typeof value.apiVersion !== 'string')
    throw new Error(`${where}: not a Kubernetes object`);
  const meta = value.metadata;
  if (!isObject(meta) || typeof meta.name !== 'string') throw new Error(`${where}: no metadata.name`);
  return value as unknown as K8sObject;
}

/** Render the kustomization in `dir` (a directory holding kustomization.yaml). */
export function renderKustomization(dir: string): K8sObject[] {
  const file = path.join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir}: no kustomization.yaml`);
  const [k] = readYamlDocs(file);
  if (!isObject(k)) throw new Error(`${file}: not a mapping`);
  for (const field of Object.keys(k)) {
    if (!KUSTOMIZATION_FIELDS.has(field))
      throw new Error(
        `${file}: "${field}" is outside the kustomize subset tests/src/k8s/kustomize.ts renders`,
      );
  }
  let objects: K8sObject[] = [];
  for (const res of (k.resources ?? []) as string[]) {
    const target = path.resolve(dir, res);
    if (statSync(target).isDirectory()) objects.push(...renderKustomization(target));
    else objects.push(...readYamlDocs(target).map((d, i) => asObject(d, `${target} #${i + 1}`)));
  }
  for (const p of (k.patches ?? []) as JsonObject[]) objects = applyPatchEntry(objects, p, dir);
  if (typeof k.namespace === 'string') {
    for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  }
  for (const r of (k.replicas ?? []) as Array<{ name: string; count: number }>) {
    const hits = objects.filter((o) => SCALABLE.has(o.kind) && o.metadata.name === r.name);
    if (hits.length === 0) throw new Error(`${file}: replicas for "${r.name}", which no resource has`);
    for (const o of hits) (o.spec as JsonObject).replicas = r.count;
  }
  for (const img of (k.images ?? []) as Array<{
    name: string;
    newName?: string;
    newTag?: string;
    digest?: string;
  }>) {
    for (const o of objects) setImages(o, img);
  }
  return objects;
}

/** `name[:tag][@digest]`, where a registry's `host:port/` is part of the name. */
export function splitImage(ref: string): { name: string; tag?: string; digest?: string } {
  const [nameAndTag = '', digest] = ref.split('@');
  const slash = nameAndTag.lastIndexOf('/');
  const colon = nameAndTag.lastIndexOf(':');
  if (colon > slash) return { name: nameAndTag.slice(0, colon), tag: nameAndTag.slice(colon + 1), digest };
  return { name: nameAndTag, digest };
}

function setImages(
  node: unknown,
  img: { name: string; newName?: string; newTag?: string; digest?: string },
): void {
  if (Array.isArray(node)) {
    for (const item of node) setImages(item, img);
    return;
  }
  if (!isObject(node)) return;
  for (const key of ['containers', 'initContainers']) {
    const list = node[key];
    if (!Array.isArray(list)) continue;
    for (const c of list) {
      if (!isObject(c) || typeof c.image !== 'string') continue;
      const ref = splitImage(c.image);
      if (ref.name !== img.name) continue;
      const name = img.newName ?? ref.name;
      if (img.digest) c.image = `${name}@${img.digest}`;
      else if (img.newTag) c.image = `${name}:${img.newTag}`;
      else c.image = `${name}${ref.tag ? `:${ref.tag}` : ''}${ref.digest ? `@${ref.digest}` : ''}`;
    }
  }
  for (const value of Object.values(node)) setImages(value, img);
}

function matches(o: K8sObject, target: JsonObject): boolean {
  const [group, version] = o.apiVersion.includes('/') ? o.apiVersion.split('/') : ['', o.apiVersion];
  if (target.group !== undefined && target.group !== group) return false;
  if (target.version !== undefined && target.version !== version) return false;
  if (target.kind !== undefined && target.kind !== o.kind) return false;
  if (target.name !== undefined && target.name !== o.metadata.name) return false;
  if (target.namespace !== undefined && target.namespace !== o.metadata.namespace) return false;
  for (const unsupported of ['labelSelector', 'annotationSelector'])
    if (target[unsupported] !== undefined)
      throw new Error(`patch target ${unsupported} is outside the subset`);
  return true;
}

function applyPatchEntry(objects: K8sObject[], entry: JsonObject, dir: string): K8sObject[] {
  for (const field of Object.keys(entry)) {
    if (!['path', 'patch', 'target'].includes(field))
      throw new Error(`patches: "${field}" is outside the subset`);
  }
  const source = typeof entry.path === 'string' ? path.resolve(dir, entry.path) : undefined;
  const docs = source
    ? readYamlDocs(source)
    : parseAllDocuments(String(entry.patch ?? '')).map((d) => d.toJS() as unknown);
  const [patch] = docs;
  if (docs.length !== 1) throw new Error(`${source ?? 'inline patch'}: one patch per entry`);
  const target = isObject(entry.target) ? entry.target : undefined;
  if (Array.isArray(patch)) {
    if (!target) throw new Error(`${source}: a JSON 6902 patch needs a target`);
    const hits = objects.filter((o) => matches(o, target));
    if (hits.length === 0) throw new Error(`${source}: its target matches no resource`);
    return objects.map((o) => (hits.includes(o) ? applyJson6902(o, patch as JsonObject[]) : o));
  }
  const p = asObject(patch, source ?? 'inline patch');
  const selector: JsonObject = target ?? { kind: p.kind, name: p.metadata.name };
  const hits = objects.filter((o) => matches(o, selector));
  if (hits.length === 0) throw new Error(`${source}: its target matches no resource`);
  return objects.map((o) => {
    if (!hits.includes(o)) return o;
    // The patch's name and namespace select; the rest of its metadata (labels…) merges like the body.
    const { metadata, ...rest } = p as unknown as JsonObject;
    const { name: _name, namespace: _namespace, ...meta } = metadata as JsonObject;
    const body: JsonObject = Object.keys(meta).length > 0 ? { ...rest, metadata: meta } : rest;
    const merged = BUILT_IN_GROUPS.has(groupOf(o.apiVersion))
      ? strategicMerge(clone(o) as unknown as JsonObject, body)
      : jsonMerge(clone(o) as unknown as JsonObject, body);
    return merged as unknown as K8sObject;
  });
}

/** Strategic merge: maps merge, `null` deletes, lists with a merge key merge by it, others replace. */
export function strategicMerge(base: JsonObject, patch: JsonObject): JsonObject {
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$')) throw new Error(`patch directive ${key} is outside the subset`);
    if (value === null) {
      delete base[key];
    } else if (isObject(value)) {
      base[key] = strategicMerge(isObject(base[key]) ? (base[key] as JsonObject) : {}, value);
    } else if (Array.isArray(value) && MERGE_KEYS[key] && Array.isArray(base[key])) {
      const mergeKey = MERGE_KEYS[key] as string;
      const list = base[key] as JsonObject[];
      for (const item of value) {
        if (!isObject(item) || item[mergeKey] === undefined)
          throw new Error(`${key}: item without ${mergeKey}`);
        const at = list.findIndex((x) => isObject(x) && x[mergeKey] === item[mergeKey]);
        if (at >= 0) list[at] = strategicMerge(list[at] as JsonObject, item);
        else list.push(item);
      }
    } else {
      base[key] = clone(value);
    }
  }
  return base;
}

/** RFC 7386 JSON merge patch (kustomize's behaviour for kinds it has no schema for). */
function jsonMerge(base: JsonObject, patch: JsonObject): JsonObject {
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete base[key];
    else if (isObject(value))
      base[key] = jsonMerge(isObject(base[key]) ? (base[key] as JsonObject) : {}, value);
    else base[key] = clone(value);
  }
  return base;
}

const unescapeToken = (token: string) => token.replace(/~1/g, '/').replace(/~0/g, '~');

/** RFC 6902: add, remove, replace (what an overlay needs); paths must exist as RFC 6902 says. */
export function applyJson6902(object: K8sObject, ops: JsonObject[]): K8sObject {
  const doc = clone(object) as unknown as JsonObject;
  for (const op of ops) {
    if (typeof op.path !== 'string' || !op.path.startsWith('/'))
      throw new Error(`bad JSON patch path ${op.path}`);
    const tokens = op.path.slice(1).split('/').map(unescapeToken);
    const last = tokens.pop() as string;
    let parent: Json = doc;
    for (const t of tokens) {
      const next: Json | undefined = Array.isArray(parent)
        ? parent[Number(t)]
        : isObject(parent)
          ? parent[t]
          : undefined;
      if (next === undefined) throw new Error(`JSON patch ${op.op} ${op.path}: no such path`);
      parent = next;
    }
    const value = clone(op.value as Json);
    if (Array.isArray(parent)) {
      const i = last === '-' ? parent.length : Number(last);
      if (op.op === 'add') parent.splice(i, 0, value);
      else if (op.op === 'replace' && i < parent.length) parent[i] = value;
      else if (op.op === 'remove' && i < parent.length) parent.splice(i, 1);
      else throw new Error(`JSON patch ${op.op} ${op.path}: not possible`);
    } else if (isObject(parent)) {
      if (op.op === 'add') parent[last] = value;
      else if (op.op === 'replace' && last in parent) parent[last] = value;
      else if (op.op === 'remove' && last in parent) delete parent[last];
      else throw new Error(`JSON patch ${op.op} ${op.path}: not possible`);
    } else {
      throw new Error(`JSON patch ${op.op} ${op.path}: parent is not a container`);
    }
  }
  return doc as unknown as K8sObject;
}

/** Parse the multi-document YAML `kubectl kustomize` prints. */
export function parseRendered(text: string): K8sObject[] {
  return parseAllDocuments(text)
    .map((d) => d.toJS() as unknown)
    .filter((v) => v !== null && v !== undefined)
    .map((v, i) => asObject(v, `rendered #${i + 1}`));
}

/** Every object in a stable order (kind, namespace, name), for comparing two renders. */
export function sortObjects(objects: K8sObject[]): K8sObject[] {
  const key = (o: K8sObject) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  return [...objects].sort((a, b) => key(a).localeCompare(key(b)));
}

/** The object of `kind` named `name` (throws when absent or ambiguous). */
export function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const hits = objects.filter((o) => o.kind === kind && o.metadata.name === name);
  if (hits.length !== 1) throw new Error(`${hits.length} ${kind} objects named ${name}`);
  return hits[0] as K8sObject;
}
