/**
 * The Sentinel and Cluster overlays of infra/k8s: the services get REDIS_SENTINELS /
 * REDIS_CLUSTER_NODES (parsed by the services' own config into the target they connect to), and
 * each KEDA trigger reads, through the scaler for that topology, the key the base reads — under
 * the prefix the services use there (hash-tagged on a cluster, queueKeyPrefix).
 */
import { loadEnv, queueKeyPrefix, redisHaEnv, redisTarget } from '@wcs/config';
import { z } from 'zod';
import { find, type K8sObject } from './k8s/kustomize';
import { rendered } from './k8s/renders';

interface Trigger {
  type: string;
  name: string;
  authenticationRef?: { name: string };
  metadata: Record<string, string>;
}
const triggers = (objects: K8sObject[]) =>
  objects
    .filter((o) => o.kind === 'ScaledObject')
    .flatMap((o) => (o.spec as { triggers: Trigger[] }).triggers.map((t) => ({ so: o.metadata.name, ...t })));
const common = (objects: K8sObject[]) =>
  (find(objects, 'ConfigMap', 'wcs-common') as unknown as { data: Record<string, string> }).data;
const targetOf = (data: Record<string, string>) =>
  redisTarget(
    loadEnv(redisHaEnv.extend({ REDIS_URL: z.string() }), {
      ...data,
      REDIS_URL: 'redis://:CHANGE-ME@redis.example.internal:6379',
    }),
  );

const base = triggers(rendered.base as K8sObject[]);

describe.each([
  ['overlays/redis-sentinel', 'sentinel', 'redis-sentinel'],
  ['overlays/redis-cluster', 'cluster', 'redis-cluster'],
] as const)('%s', (dir, kind, scaler) => {
  const objects = rendered[dir] as K8sObject[];
  const data = common(objects);
  const target = targetOf(data);
  const prefix = queueKeyPrefix(target, data.QUEUE_PREFIX ?? '');

  it(`the services connect through ${kind}`, () => {
    expect(target.kind).toBe(kind);
  });

  it('every trigger of the base is there, on the same queue key under the prefix the services use', () => {
    const mine = triggers(objects);
    expect(mine.map((t) => [t.so, t.name])).toEqual(base.map((t) => [t.so, t.name]));
    const plain = common(rendered.base as K8sObject[]).QUEUE_PREFIX ?? '';
    mine.forEach((t, i) => {
      const b = base[i] as Trigger;
      expect(t.type).toBe(scaler);
      expect(t.authenticationRef?.name).toBe('wcs-redis');
      expect(t.metadata.listName).toBe(`${prefix}${(b.metadata.listName ?? '').slice(plain.length)}`);
      expect(t.metadata.listLength).toBe(b.metadata.listLength);
      expect(t.metadata.activationListLength).toBe(b.metadata.activationListLength);
      const nodes =
        target.kind === 'sentinel' ? target.sentinels : target.kind === 'cluster' ? target.nodes : [];
      expect(t.metadata.addresses).toBe(nodes.map((n) => `${n.host}:${n.port}`).join(','));
      if (target.kind === 'sentinel') expect(t.metadata.sentinelMaster).toBe(target.name);
    });
    if (kind === 'cluster') expect(prefix).toBe(`{${plain}}`);
    else expect(prefix).toBe(plain);
  });

  it('KEDA authenticates with the password only (the addresses are in the triggers)', () => {
    const auth = find(objects, 'TriggerAuthentication', 'wcs-redis') as unknown as {
      spec: { secretTargetRef: Array<{ parameter: string }> };
    };
    expect(auth.spec.secretTargetRef.map((r) => r.parameter)).toEqual(['password']);
  });
});
