/**
 * Secret page options (request headers, cookies, actions) in the payload of an interactive job
 * (scrape, extract), which BullMQ keeps in Redis after the job ends. They travel sealed: AES-256-GCM
 * under a key made for this one job and kept beside it in Redis with a TTL of the job's budget.
 * The gateway deletes the key as soon as it stops waiting, so what stays in the finished job is
 * ciphertext nobody can open (crypto-shredding); a crash leaves the key to its TTL at worst.
 * Batch, crawl and monitor jobs never carry secrets: their rows in PostgreSQL do (see the contract).
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ServiceUnavailableError } from '@wcs/errors';
import { z } from 'zod';
import { createRedisConnection, keyPrefixOn, type RedisClient, type RedisTargetInput } from './connection';
import { type PageSecrets, pageSecrets } from './page-options.contract';

export const sealedSecrets = z.strictObject({
  /** Names the key in Redis (the request id). */
  id: z.string().min(1).max(200),
  iv: z.string(),
  data: z.string(),
  tag: z.string(),
});
export type SealedSecrets = z.infer<typeof sealedSecrets>;

const keyName = (prefix: string, id: string) => `${prefix}:job-secret:${id}`;

export class JobSecrets {
  private owned = false;

  constructor(
    private readonly redis: RedisClient,
    private readonly prefix: string,
  ) {}

  /** A worker's store on its own connection (waits for Redis like the worker does); close() ends it. */
  static connect(redis: RedisTargetInput, prefix: string): JobSecrets {
    const store = new JobSecrets(createRedisConnection(redis, 'worker'), keyPrefixOn(redis, prefix));
    store.owned = true;
    return store;
  }

  async close(): Promise<void> {
    if (this.owned) await this.redis.quit().catch(() => this.redis.disconnect());
  }

  /** Encrypt under a fresh key that Redis forgets after `ttlMs`. */
  async seal(id: string, secrets: PageSecrets, ttlMs: number): Promise<SealedSecrets> {
    const key = randomBytes(32);
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(secrets), 'utf8'), cipher.final()]);
    await this.redis.set(keyName(this.prefix, id), key.toString('base64'), 'PX', Math.max(1_000, ttlMs));
    return {
      id,
      iv: iv.toString('base64'),
      data: data.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
    };
  }

  /** The secrets, or an error when their key is gone (the job outlived its budget). */
  async open(sealed: SealedSecrets): Promise<PageSecrets> {
    const raw = await this.redis.get(keyName(this.prefix, sealed.id));
    if (!raw)
      throw new ServiceUnavailableError('The request options of this job have expired; send it again');
    const decipher = createDecipheriv(
      'aes-256-gcm',
      Buffer.from(raw, 'base64'),
      Buffer.from(sealed.iv, 'base64'),
    );
    decipher.setAuthTag(Buffer.from(sealed.tag, 'base64'));
    const plain = Buffer.concat([decipher.update(Buffer.from(sealed.data, 'base64')), decipher.final()]);
    return pageSecrets.parse(JSON.parse(plain.toString('utf8')));
  }

  /** Forget the key: the sealed payload can never be opened again. */
  async drop(id: string): Promise<void> {
    await this.redis.del(keyName(this.prefix, id));
  }
}

/** A job's secrets, if it has any; a sealed payload on a worker without the store is our wiring bug. */
export async function openJobSecrets(
  store: JobSecrets | undefined,
  sealed: SealedSecrets | undefined,
): Promise<PageSecrets | undefined> {
  if (!sealed) return undefined;
  if (!store) throw new Error('This worker cannot open sealed page options (no JobSecrets wired)');
  return store.open(sealed);
}
