import { createHash } from 'node:crypto';
import type { ApiKeysRepository } from '@wcs/db';

type Verified = NonNullable<Awaited<ReturnType<ApiKeysRepository['verify']>>>;

/**
 * How long a verified key is taken on trust without asking PostgreSQL again. Every API call pays
 * the lookup otherwise (a round trip before anything else can start). A key revoked through this
 * gateway (DELETE /v1/keys/:id) is forgotten at once; revoked elsewhere (another gateway, the CLI),
 * it keeps working here at most this long. `last_used_at` (minute granularity) is still written:
 * every key is verified again at least this often.
 */
export const API_KEY_CACHE_TTL_MS = 2_000;
/** Keys held at most; the oldest entry goes first. Unknown keys are never held. */
export const API_KEY_CACHE_MAX_ENTRIES = 10_000;

/** The Bearer-key check of the auth middleware, answered from memory for a short while. */
export class ApiKeyCache {
  /** sha256 of the key (never the key itself) → what verify answered, and until when. */
  private readonly entries = new Map<string, { found: Verified; until: number }>();
  /** Bumped by forget(): a lookup that started before a revoke does not store its answer. */
  private generation = 0;

  constructor(
    private readonly keys: Pick<ApiKeysRepository, 'verify'>,
    private readonly opts: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {}

  async verify(apiKey: string): Promise<Verified | null> {
    const now = this.now();
    const id = createHash('sha256').update(apiKey).digest('base64');
    const hit = this.entries.get(id);
    if (hit && hit.until > now) return hit.found;
    if (hit) this.entries.delete(id);
    const generation = this.generation;
    const found = await this.keys.verify(apiKey);
    if (!found) return null;
    const ttl = this.opts.ttlMs ?? API_KEY_CACHE_TTL_MS;
    if (ttl > 0 && generation === this.generation) {
      if (this.entries.size >= (this.opts.maxEntries ?? API_KEY_CACHE_MAX_ENTRIES)) {
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
      this.entries.set(id, { found, until: this.now() + ttl });
    }
    return found;
  }

  /** A key was revoked: its next call is checked in PostgreSQL again. */
  forget(keyId: string): void {
    this.generation++;
    for (const [id, e] of this.entries) if (e.found.keyId === keyId) this.entries.delete(id);
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}
