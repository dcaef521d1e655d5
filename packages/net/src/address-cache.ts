/**
 * Resolved addresses of host names, kept for a few seconds. Every fetch resolves its host twice
 * (the up-front check of each hop, and the connect-time lookup of a new connection), and a crawl
 * fetches the same host hundreds of times a second: getaddrinfo each time is a resolver round trip
 * on the libuv pool (shared with zlib and the file system), for an answer that does not change.
 *
 * Only what was resolved is kept, never a verdict: every use still judges every address with the
 * caller's policy, and a connection goes to an address that was judged. A cached answer cannot
 * let a rebinding host in (its later answers are simply not asked for until the entry expires);
 * failures are not kept (the next fetch asks again).
 */
import dns from 'node:dns';

/** Answers are kept this long: far below the TTL of any site's records, far above a crawl's gap. */
export const ADDRESS_CACHE_TTL_MS = 5_000;
/** Hosts kept at most; the oldest entry goes first. */
export const ADDRESS_CACHE_MAX_HOSTS = 1_000;

/** Every address of a name (target-precheck.ts's LookupAll; not imported: that file imports the policy). */
type LookupAll = (host: string) => Promise<dns.LookupAddress[]>;

const systemLookup: LookupAll = (host) => dns.promises.lookup(host, { all: true, verbatim: true });

export class AddressCache {
  private readonly entries = new Map<string, { addresses: dns.LookupAddress[]; until: number }>();
  /** One lookup per host at a time: concurrent fetches of a host share it. */
  private readonly pending = new Map<string, Promise<dns.LookupAddress[]>>();

  constructor(
    private readonly opts: { ttlMs?: number; maxHosts?: number; lookup?: LookupAll; now?: () => number } = {},
  ) {}

  /** Every address of `host` (a name, not an IP literal), as `dns.lookup(…, { all: true })` gives them. */
  resolve(host: string): Promise<dns.LookupAddress[]> {
    const key = host.toLowerCase();
    const hit = this.entries.get(key);
    if (hit && hit.until > this.now()) return Promise.resolve(hit.addresses);
    if (hit) this.entries.delete(key);
    const running = this.pending.get(key);
    if (running) return running;
    const asked = (this.opts.lookup ?? systemLookup)(host).then(
      (addresses) => {
        this.pending.delete(key);
        if (addresses.length > 0) this.keep(key, addresses);
        return addresses;
      },
      (err: unknown) => {
        this.pending.delete(key);
        throw err;
      },
    );
    this.pending.set(key, asked);
    return asked;
  }

  private keep(key: string, addresses: dns.LookupAddress[]): void {
    if (this.entries.size >= (this.opts.maxHosts ?? ADDRESS_CACHE_MAX_HOSTS)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { addresses, until: this.now() + (this.opts.ttlMs ?? ADDRESS_CACHE_TTL_MS) });
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}
