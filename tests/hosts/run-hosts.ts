/**
 * `pnpm test:hosts`: the stores, the gateway and two worker hosts in network namespaces of their
 * own (wcsh-*, 10.231.1.0/24, a bridge in a namespace of its own), and per fault a 500-URL batch,
 * a 300-page crawl and a monitor while a worker host loses its link or its processes. Prints the
 * table (docs/reliability/hosts.md); exit 1 when a row fails.
 *
 * Needs root (ip netns). Not root: says why and exits 1, or 0 with HOSTS_SKIP_UNLESS_ROOT=1.
 *   HOSTS_FAULTS='SIGKILL every service on worker host w2' pnpm test:hosts   (a subset, by name)
 */
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { createNetwork, NET_HOSTS, removeNetwork } from './host-network';
import { loadHostsOptions } from './hosts-options';

/** After an interrupt, how long the inner run gets to stop its stores before the namespaces go. */
const INTERRUPT_GRACE_MS = 3_000;

async function main(): Promise<number> {
  const options = loadHostsOptions();
  if (os.userInfo().uid !== 0) {
    console.error(
      'test:hosts needs root: it creates network namespaces (ip netns add) and veth pairs for its hosts.' +
        (options.HOSTS_SKIP_UNLESS_ROOT
          ? ' Skipped (HOSTS_SKIP_UNLESS_ROOT=1).'
          : ' Run it as root, or set HOSTS_SKIP_UNLESS_ROOT=1 to skip.'),
    );
    return options.HOSTS_SKIP_UNLESS_ROOT ? 0 : 1;
  }
  const leftovers = await removeNetwork();
  if (leftovers.length) console.error(`[hosts] removed leftovers of an earlier run: ${leftovers.join(', ')}`);
  let interrupted = false;
  let child: ReturnType<typeof spawn> | null = null;
  let giveUp: (() => void) | null = null;
  // A signal: pass it on, give the inner run a moment to stop its stores, then the namespaces go
  // (removeNetwork ends whatever is left in them). Wrappers (pnpm) may end this process soon after.
  const onSignal = (sig: NodeJS.Signals) => {
    child?.kill(sig);
    if (interrupted) return;
    interrupted = true;
    setTimeout(() => giveUp?.(), INTERRUPT_GRACE_MS).unref();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    await createNetwork();
    // The harness itself runs on the stores host, beside the site it records requests on.
    const inside = spawn(
      'ip',
      [
        'netns',
        'exec',
        NET_HOSTS.stores.netns,
        process.execPath,
        ...process.execArgv,
        path.join(__dirname, 'hosts-inside.ts'),
      ],
      { stdio: 'inherit' },
    );
    child = inside;
    const code = await new Promise<number>((resolve) => {
      giveUp = () => resolve(130);
      inside.once('exit', (c) => resolve(c ?? 1));
    });
    return interrupted ? 130 : code;
  } finally {
    await removeNetwork();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    removeNetwork().finally(() => process.exit(1));
  },
);
