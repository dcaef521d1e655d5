import { type ChildProcess, spawn } from 'node:child_process';
import readline from 'node:readline';
import { compiledService, type ServiceName } from '@wcs/runtime';

export type { ServiceName };

/** The line each service's main.ts logs once it is consuming (or, for the gateway, listening). */
const READY: Record<ServiceName, string> = {
  gateway: 'gateway listening',
  'scrape-worker': 'scrape worker started',
  'crawl-worker': 'crawl worker started',
  'extract-worker': 'extract worker started',
  'monitor-scheduler': 'monitor scheduler started',
  'webhook-dispatcher': 'webhook dispatcher started',
};

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 25_000;
const LOG_LINES_KEPT = 200;
/** What a worker logs when a job's lock was no longer its own (BullMQ's renewal, or our check). */
const LOCK_LOST = /could not renew lock for job|its lock is no longer this worker's/;

/** Children still alive, killed if this process exits first (a failed or interrupted run). */
const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of live) c.kill('SIGKILL');
});

/**
 * One service as its own OS process, started the way scripts/supervise.ts starts it
 * (`node --enable-source-maps dist/main.js` in its directory), so SIGKILL kills exactly that service.
 */
export class ServiceProcess {
  private child: ChildProcess | null = null;
  readonly log: string[] = [];
  /** When this process logged a lost job lock (kept whole: the log keeps only its last lines). */
  readonly lockLostAt: number[] = [];
  starts = 0;

  /**
   * `netns`: run it inside that network namespace (`ip netns exec`, which execs the service in
   * place, so the child's pid is the service's own and SIGKILL still kills exactly that service).
   */
  constructor(
    readonly name: ServiceName,
    private readonly env: Record<string, string>,
    readonly netns?: string,
  ) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Start and resolve once its ready line is logged; reject if it exits first. */
  start(): Promise<void> {
    if (this.child) throw new Error(`${this.name} is already running`);
    this.starts++;
    const { cwd, args } = compiledService(this.name);
    const [command, argv]: [string, string[]] = this.netns
      ? ['ip', ['netns', 'exec', this.netns, process.execPath, ...args]]
      : [process.execPath, args];
    const child = spawn(command, argv, {
      cwd,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    live.add(child);
    child.once('exit', () => live.delete(child));
    const tag = `[${this.netns ? `${this.netns}/` : ''}${this.name}#${this.starts}]`;
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`${this.name} did not log "${READY[this.name]}" within ${START_TIMEOUT_MS} ms`));
      }, START_TIMEOUT_MS);
      for (const stream of [child.stdout, child.stderr]) {
        if (!stream) continue;
        readline.createInterface({ input: stream }).on('line', (line) => {
          this.log.push(`${tag} ${line}`);
          if (this.log.length > LOG_LINES_KEPT) this.log.shift();
          if (LOCK_LOST.test(line)) this.lockLostAt.push(Date.now());
          if (line.includes(READY[this.name])) {
            clearTimeout(timer);
            resolve();
          }
        });
      }
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        if (this.child === child) this.child = null;
        this.log.push(`${tag} exited (code ${code}, signal ${signal})`);
        // Its last lines say why (a port taken meanwhile, a bad env): the test's output keeps them.
        const said = this.log.slice(-6).join('\n');
        reject(
          new Error(`${this.name} exited before it was ready (code ${code}, signal ${signal}):\n${said}`),
        );
      });
    });
  }

  /** SIGKILL: no shutdown hooks, locks stay held until they expire. Resolves once it is gone. */
  async kill(): Promise<void> {
    await this.signal('SIGKILL', STOP_TIMEOUT_MS);
  }

  /** SIGTERM with a deadline, then SIGKILL. */
  async stop(): Promise<void> {
    if (!(await this.signal('SIGTERM', STOP_TIMEOUT_MS))) await this.signal('SIGKILL', STOP_TIMEOUT_MS);
  }

  private signal(sig: NodeJS.Signals, timeoutMs: number): Promise<boolean> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.child = null;
      return Promise.resolve(true);
    }
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      child.once('exit', () => {
        clearTimeout(timer);
        if (this.child === child) this.child = null;
        resolve(true);
      });
      child.kill(sig);
    });
  }
}
