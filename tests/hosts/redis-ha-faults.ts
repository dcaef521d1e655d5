import { type RedisTarget, redisHaEnv, redisTarget } from '@wcs/config';
import type { FaultContext, ScenarioResult } from '../faults/fault-scenario';
import type { FaultStackOptions } from '../faults/fault-stack';
import { workloadUnderFault } from './hosts-workload';
import { startClusterStores, startSentinelStores } from './redis-ha-stores';

/** A row's own Redis (Sentinel or Cluster) and how the stack and the harness reach it. */
export interface RowRedis {
  /** REDIS_URL (credentials only behind Sentinel/Cluster) and REDIS_SENTINELS / REDIS_CLUSTER_NODES. */
  env: Record<string, string>;
  redisUrl: string;
  producerRedis: FaultStackOptions['producerRedis'];
  run(ctx: FaultContext): Promise<ScenarioResult>;
  stop(): Promise<void>;
}

export interface RedisHaFault {
  name: string;
  what: string;
  start(host: string): Promise<RowRedis>;
}

/** The harness's queue client finds Redis from the stores' env as the services do (their parser). */
const targetFrom = (env: Record<string, string>, redisUrl: string): RedisTarget =>
  redisTarget({ ...redisHaEnv.parse(env), REDIS_URL: redisUrl });

export const redisHaFaults: RedisHaFault[] = [
  {
    name: 'Redis master failed over through Sentinel',
    what:
      'the stack finds its Redis through 3 sentinels (master + replica); SENTINEL FAILOVER mid-workload: ' +
      'the replica becomes master, the old one a replica, every client must follow',
    async start(host) {
      const stores = await startSentinelStores(host);
      return {
        env: stores.env,
        redisUrl: stores.redisUrl,
        producerRedis: targetFrom(stores.env, stores.redisUrl),
        run: (ctx) =>
          workloadUnderFault(ctx, async () => {
            const { from, to } = await stores.failover();
            return { notes: [`master ${from} -> ${to}`] };
          }),
        stop: () => stores.stop(),
      };
    },
  },
  {
    name: 'Redis Cluster primary restarted',
    what:
      'the stack runs on a 3-primary Redis Cluster (a replica each); the primary holding its keys is ' +
      'SIGKILLed mid-workload, its replica takes the slots over, the node is started again',
    async start(host) {
      const stores = await startClusterStores(host);
      return {
        env: stores.env,
        redisUrl: stores.env.REDIS_URL ?? '',
        producerRedis: targetFrom(stores.env, stores.env.REDIS_URL ?? ''),
        run: (ctx) =>
          workloadUnderFault(ctx, async () => {
            // Every key of the stack carries its prefix as a hash tag: one slot, one primary.
            const { killed, promoted } = await stores.restartPrimaryOf(`{${ctx.stack.prefix}}:probe`);
            return { notes: [`primary ${killed} killed, ${promoted} took its slots, ${killed} back`] };
          }),
        stop: () => stores.stop(),
      };
    },
  },
];
