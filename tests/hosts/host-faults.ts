import { setTimeout as delay } from 'node:timers/promises';
import type { FaultScenario } from '../faults/fault-scenario';
import type { FaultStackOptions, HostPlacement } from '../faults/fault-stack';
import { NET_HOSTS, setLink } from './host-network';
import { TREE, workloadUnderFault } from './hosts-workload';

/** How long the worker host's link stays down: the fault itself, not a wait for anything. */
export const LINK_CUT_MS = 20_000;

/** The gateway (and the webhook dispatcher) on one host, two identical worker hosts. */
export const HOST_LAYOUT: HostPlacement[] = [
  { host: 'gw', ...NET_HOSTS.gw, services: ['gateway', 'webhook-dispatcher'] },
  { host: 'w1', ...NET_HOSTS.w1, services: ['scrape-worker', 'crawl-worker', 'monitor-scheduler'] },
  { host: 'w2', ...NET_HOSTS.w2, services: ['scrape-worker', 'crawl-worker', 'monitor-scheduler'] },
];

export const HOSTS_STACK: FaultStackOptions = {
  hosts: HOST_LAYOUT,
  listenHost: NET_HOSTS.stores.address,
  tree: TREE,
  // Four jobs per worker process: enough work in flight on each host for a fault to interrupt.
  // The production budgets per item and page (30 s): with 800 pages queued on two loaded cores,
  // the fault stack's 8 s failed pages that merely waited in the queue through a fault.
  env: {
    WORKER_CONCURRENCY: '4',
    CRAWL_HOST_CONCURRENCY: '4',
    BATCH_ITEM_TIMEOUT_MS: '30000',
    CRAWL_PAGE_TIMEOUT_MS: '30000',
  },
};

export const hostFaults: FaultScenario[] = [
  {
    name: 'link of worker host w1 down 20 s',
    what:
      "`ip link set` w1's bridge port down for 20 s, then up: w1's locks expire, w2 takes its jobs " +
      'over (stalled check, reconcilers); w1 rejoins when its link is back',
    run: (ctx) =>
      workloadUnderFault(ctx, async () => {
        await setLink(NET_HOSTS.w1, 'down');
        const cutAt = Date.now();
        await delay(LINK_CUT_MS);
        await setLink(NET_HOSTS.w1, 'up');
        const upAt = Date.now();
        // Only what w1 had in flight when its link went is allowed twice (w2 redoes it).
        return {
          inFlightUntil: cutAt,
          notes: [`w1 off the network ${upAt - cutAt} ms`],
          // Evidence that w1 rejoined: pages its workers fetched once the link was back.
          afterTerminal: async () => {
            const reqs = ctx.stack.site.requests;
            const fromW1 = reqs.filter((r) => r.at >= upAt && r.from?.endsWith(NET_HOSTS.w1.address)).length;
            const duringCut = reqs.filter((r) => r.at >= cutAt && r.at < upAt);
            const last = duringCut.at(-1);
            return [
              `w1 fetched ${fromW1} page(s) after its link came back`,
              `w2 fetched ${duringCut.length} page(s) while w1 was cut off, the last ${last ? last.at - cutAt : '—'} ms into the cut`,
            ];
          },
        };
      }),
  },
  {
    name: 'SIGKILL every service on worker host w2',
    what:
      "kill -9 w2's scrape-worker, crawl-worker and monitor-scheduler together, leave the host down " +
      'until the work is terminal (w1 carries it), then start them again',
    run: (ctx) =>
      workloadUnderFault(ctx, async () => {
        const w2 = ctx.stack.onHost('w2');
        await Promise.all(w2.map((s) => s.kill()));
        return {
          afterTerminal: async () => {
            await Promise.all(w2.map((s) => s.start()));
            return [];
          },
        };
      }),
  },
];
