import { randomUUID } from 'node:crypto';
import { AccountsRepository, ApiKeysRepository, createDb } from '@wcs/db';
import { QueueProducer } from '@wcs/queues';
import { SERVICES } from '@wcs/runtime';
import { type FakeLlmServer, startFakeOpenAi, type TreeOptions } from '@wcs/testing';
import { CountingSite, WebhookReceiver } from './fault-sites';
import { freePort } from './private-redis';
import { type ServiceName, ServiceProcess } from './service-process';

export const ALL_SERVICES: ServiceName[] = [...SERVICES];

/** `hourly` fires every 3 s in a fault stack. */
export const MONITOR_EVERY_MS = 3_000;

/**
 * Short locks and reconcile intervals, so a killed worker's jobs come back within seconds; the
 * browser is off (the target pages are static HTML) to keep six processes light on two cores.
 */
const RECOVERY_ENV: Record<string, string> = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'info',
  ALLOW_PRIVATE_TARGETS: 'true',
  BROWSER_ENABLED: 'false',
  RATE_LIMIT_FREE: '10000',
  WORKER_CONCURRENCY: '2',
  WORKER_LOCK_MS: '2000',
  WORKER_STALLED_INTERVAL_MS: '1000',
  RECONCILE_INTERVAL_MS: '300',
  RECONCILE_MIN_AGE_MS: '1500',
  BATCH_ITEM_TIMEOUT_MS: '8000',
  CRAWL_RECONCILE_INTERVAL_MS: '300',
  CRAWL_RECONCILE_MIN_AGE_MS: '1500',
  CRAWL_PAGE_TIMEOUT_MS: '8000',
  CRAWL_HOST_CONCURRENCY: '2',
  MONITOR_INTERVAL_SCALE: String(MONITOR_EVERY_MS / 3_600_000),
  MONITOR_RESUME_SWEEP_MS: '300',
  MONITOR_WEBHOOK_RECOVERY_MS: '1500',
  MONITOR_CHECK_TIMEOUT_MS: '8000',
  MONITOR_RECONCILE_MS: '1000',
  WEBHOOK_TIMEOUT_MS: '5000',
  EXTRACT_PROVIDER: 'openai',
  EXTRACT_MODEL: 'fake-model',
  EXTRACT_MODEL_MAX_RETRIES: '0',
  SHUTDOWN_DRAIN_MS: '1000',
};

/** Services that run on one host: a network namespace of the test's own and its address there. */
export interface HostPlacement {
  host: string;
  netns: string;
  address: string;
  services: ServiceName[];
}

export interface FaultStackOptions {
  /** The services spread over hosts (the gateway's host serves the API); default: all on loopback. */
  hosts?: HostPlacement[];
  /** The address the site and the webhook receiver listen on (one every host can reach). */
  listenHost?: string;
  /** The site's crawl tree (default 3 × 3 levels). */
  tree?: TreeOptions;
  /** Overrides of the stack's env (e.g. a Redis reached through Sentinel instead of REDIS_URL). */
  env?: Record<string, string>;
  /** What this process's own queue client connects to, when not `redisUrl` (Sentinel, Cluster). */
  producerRedis?: ConstructorParameters<typeof QueueProducer>[0];
}

export interface Account {
  accountId: string;
  apiKey: string;
  credits: number;
}

export interface ApiAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * One fault's world: the six services as separate processes on their own queue prefix and
 * database, the target site, the webhook receiver and the fake model, all local.
 */
export class FaultStack {
  readonly prefix = `faults-${randomUUID().slice(0, 8)}`;
  /** Keyed by service name, or `host/service` when the stack spans hosts. */
  readonly services = new Map<string, ServiceProcess>();
  readonly site: CountingSite;
  readonly receiver: WebhookReceiver;
  llm: FakeLlmServer | null = null;
  producer: QueueProducer;
  gatewayUrl = '';
  private env: Record<string, string> = {};

  constructor(
    readonly databaseUrl: string,
    readonly redisUrl: string,
    private readonly options: FaultStackOptions = {},
  ) {
    this.producer = new QueueProducer(options.producerRedis ?? redisUrl, this.prefix);
    this.site = new CountingSite({ tree: options.tree, host: options.listenHost });
    this.receiver = new WebhookReceiver(options.listenHost);
  }

  /** `services`: a subset for a cheaper stack (the jest core row); default all six. */
  async start(llmDelayMs = 0, services: ServiceName[] = ALL_SERVICES): Promise<void> {
    await Promise.all([this.site.start(), this.receiver.start()]);
    this.llm = await startFakeOpenAi(() => ({ data: { title: 'Prices' }, delayMs: llmDelayMs }));
    const port = await freePort();
    const gatewayHost = this.options.hosts?.find((h) => h.services.includes('gateway'));
    this.gatewayUrl = `http://${gatewayHost?.address ?? '127.0.0.1'}:${port}`;
    this.env = {
      ...RECOVERY_ENV,
      DATABASE_URL: this.databaseUrl,
      REDIS_URL: this.redisUrl,
      QUEUE_PREFIX: this.prefix,
      PORT: String(port),
      OPENAI_BASE_URL: `${this.llm.url}/v1`,
      ...this.options.env,
    };
    if (this.options.hosts) {
      for (const h of this.options.hosts)
        for (const name of h.services)
          this.services.set(
            `${h.host}/${name}`,
            new ServiceProcess(name, { ...this.env, HOST: h.address }, h.netns),
          );
    } else {
      for (const name of services) this.services.set(name, new ServiceProcess(name, this.env));
    }
    // All at once: a start-up is mostly loading modules, and under a loaded scheduler more
    // runnable processes finish sooner than a queue of them.
    await Promise.all([...this.services.values()].map((s) => s.start()));
  }

  /** The processes of one host (`HostPlacement.host`). */
  onHost(host: string): ServiceProcess[] {
    return [...this.services.entries()].filter(([k]) => k.startsWith(`${host}/`)).map(([, s]) => s);
  }

  service(name: ServiceName): ServiceProcess {
    const s = this.services.get(name);
    if (!s) throw new Error(`no ${name} in this stack`);
    return s;
  }

  async account(credits: number): Promise<Account> {
    const db = createDb(this.databaseUrl, { poolSize: 1 });
    try {
      const a = await new AccountsRepository(db).create({ plan: 'free', credits });
      const key = await new ApiKeysRepository(db).create(a.accountId);
      return { accountId: a.accountId, apiKey: key.apiKey, credits };
    } finally {
      await db.close();
    }
  }

  async api(method: 'GET' | 'POST', path: string, who: Account, body?: unknown): Promise<ApiAnswer> {
    const res = await fetch(`${this.gatewayUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${who.apiKey}`, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { raw: text };
    }
    return { status: res.status, body: parsed };
  }

  logs(): string[] {
    return [...this.services.values()].flatMap((s) => s.log);
  }

  /** Lost job locks logged before `at`, by process (`host/service`): a process that stalled. */
  lockLossesBefore(at: number): string[] {
    return [...this.services.entries()]
      .map(([key, s]) => [key, s.lockLostAt.filter((t) => t < at).length] as const)
      .filter(([, n]) => n > 0)
      .map(([key, n]) => `${key} ${n}`);
  }

  async close(): Promise<void> {
    await Promise.all([...this.services.values()].map((s) => s.stop()));
    await this.producer.close().catch(() => undefined);
    await Promise.all([this.site.close(), this.receiver.close(), this.llm?.close()]);
  }
}
