/**
 * Files sent to POST /v1/parse, on their way from the gateway to the scrape worker. A job payload
 * is JSON kept by BullMQ after the job ends, so the bytes (up to MAX_DOCUMENT_BYTES) travel beside
 * it: one binary Redis key per request, with a TTL of the caller's wait, taken (read and deleted) by
 * the worker and dropped by the gateway when it stops waiting. A crash leaves it to its TTL at worst.
 */
import { ServiceUnavailableError } from '@wcs/errors';
import { createRedisConnection, keyPrefixOn, type RedisClient, type RedisTargetInput } from './connection';

const keyName = (prefix: string, id: string) => `${prefix}:upload:${id}`;

export class UploadStore {
  private owned = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /** A worker's store on its own connection (waits for Redis like the worker does); close() ends it. */
  static connect(redis: RedisTargetInput, prefix: string): UploadStore {
    const store = new UploadStore(createRedisConnection(redis, 'worker'), keyPrefixOn(redis, prefix));
    store.owned = true;
    return store;
  }

  async close(): Promise<void> {
    if (this.owned) await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Keep `bytes` under `id` for `ttlMs` at most. */
  async put(id: string, bytes: Buffer, ttlMs: number): Promise<void> {
    await this.redis.set(keyName(this.prefix, id), bytes, 'PX', Math.max(1_000, ttlMs));
  }

  /** The file, removed from Redis; an error when it is gone (the job outlived its caller's wait). */
  async take(id: string): Promise<Buffer> {
    const key = keyName(this.prefix, id);
    const bytes = await this.redis.getBuffer(key);
    if (!bytes) throw new ServiceUnavailableError('The uploaded file of this job has expired; send it again');
    await this.redis.del(key);
    return bytes;
  }

  async drop(id: string): Promise<void> {
    await this.redis.del(keyName(this.prefix, id));
  }
}
