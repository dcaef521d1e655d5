import { randomUUID } from 'node:crypto';
import { InternalError } from '@wcs/errors';
import type { Db } from './db';
import { DeploymentSecretsRepository, derivePurposeKey } from './deployment-secrets.repository';
import { pngDimensions } from './png-dimensions';
import { S3ObjectStore, type S3Settings } from './s3-object-store';
import { readScreenshotToken, signScreenshotToken } from './screenshot-token';

export type ScreenshotStorage = 'postgres' | 's3';

export interface ScreenshotSettings {
  /** The gateway's external base URL (no trailing slash): URLs are `<publicUrl>/v1/screenshots/<token>.png`. */
  publicUrl: string;
  /**
   * The secret that signs screenshot URLs (SCREENSHOT_URL_SECRET). Unset: a random one kept in
   * PostgreSQL (`deployment_secrets`), created by the first process that needs it and shared by all.
   */
  urlSecret?: string | undefined;
  /** How long a screenshot is served and kept. */
  ttlMs: number;
  /** Where new screenshots go. */
  storage: ScreenshotStorage;
  /**
   * The bucket. Required for `storage: 's3'`; when set with `postgres` storage, screenshots saved
   * earlier in the bucket stay readable and are still purged (a switch back loses nothing).
   */
  s3?: S3Settings & { prefix: string };
}

/** Purpose label of the URL key (derived from the secret, so the secret keys nothing else). */
const URL_KEY_PURPOSE = 'wcs screenshot url v1';
/** Name of the stored secret when none is configured. */
const URL_SECRET_NAME = 'screenshot-url';

/** A live screenshot as the gateway serves it. */
export interface StoredScreenshot {
  png: Buffer;
  width: number;
  height: number;
  expiresAt: Date;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Expired rows handled per round of a purge, and rounds per purge (the next sweep does the rest). */
const PURGE_BATCH = 500;
const PURGE_MAX_ROUNDS = 20;
/** Object deletes in flight at once during a purge. */
const PURGE_CONCURRENCY = 8;

/**
 * Screenshots taken by scrapes: the row (owner, size, expiry) is always in PostgreSQL;
 * the PNG is in the row or in an S3-compatible bucket. Served until `expiresAt` — to whoever holds
 * its signed URL (`urlOf`, `openByToken`), or by id to the owning account — then purged by the
 * retention sweep. Implements @wcs/scraper's ScreenshotStore.
 */
export class ScreenshotsRepository {
  private readonly bucket: S3ObjectStore | undefined;
  /** The URL key, resolved once per instance (a failed lookup is retried by the next call). */
  private urlKeyPromise: Promise<Buffer> | undefined;

  constructor(
    private readonly db: Db,
    private readonly settings: ScreenshotSettings,
  ) {
    if (settings.storage === 's3' && !settings.s3) {
      throw new Error('Screenshot storage s3 needs the bucket settings (S3_ENDPOINT, S3_BUCKET, …)');
    }
    this.bucket = settings.s3 ? new S3ObjectStore(settings.s3) : undefined;
  }

  /**
   * The capability URL of a screenshot: `<publicUrl>/v1/screenshots/<token>.png`, served to whoever
   * holds it, without a key, until `expiresAt` (the screenshot's own expiry).
   */
  async urlOf(id: string, expiresAt: Date): Promise<string> {
    const token = signScreenshotToken(await this.urlKey(), { id, expiresAt });
    return `${this.settings.publicUrl}/v1/screenshots/${token}.png`;
  }

  async save(accountId: string, png: Buffer): Promise<{ id: string; url: string }> {
    const size = pngDimensions(png);
    if (!size) throw new InternalError('The screenshot is not a PNG');
    // The key first: a screenshot whose URL cannot be signed is not stored at all.
    await this.urlKey();
    const id = randomUUID();
    const expiresAt = new Date(Date.now() + this.settings.ttlMs);
    const storage = this.settings.storage;
    // The row goes first: a crash before the upload leaves a row the purge removes, never an
    // object no row points to (which nothing would ever delete).
    await this.db.prisma.screenshot.create({
      data: {
        id,
        accountId,
        storage,
        png: storage === 'postgres' ? new Uint8Array(png) : null,
        bytes: png.length,
        width: size.width,
        height: size.height,
        expiresAt,
      },
      select: { id: true },
    });
    if (storage === 's3' && this.bucket) {
      try {
        await this.bucket.put(this.objectKey(id), png, 'image/png');
      } catch (err) {
        await this.db.prisma.screenshot.deleteMany({ where: { id } }).catch(() => undefined);
        throw err;
      }
    }
    return { id, url: await this.urlOf(id, expiresAt) };
  }

  /** The account's live screenshot; undefined when unknown, expired, another account's or not a uuid. */
  async open(accountId: string, id: string): Promise<StoredScreenshot | undefined> {
    if (!UUID_RE.test(id)) return undefined;
    return this.load(id, accountId);
  }

  /**
   * The live screenshot a capability token names, whoever asks; undefined when the token is
   * malformed, forged, signed with another secret, expired, or its screenshot is gone — one answer
   * for all, so a caller learns nothing from trying.
   */
  async openByToken(token: string, now: Date = new Date()): Promise<StoredScreenshot | undefined> {
    const claims = readScreenshotToken(await this.urlKey(), token);
    if (!claims || claims.expiresAt <= now) return undefined;
    const shot = await this.load(claims.id, undefined, now);
    if (!shot) return undefined;
    return shot.expiresAt < claims.expiresAt ? shot : { ...shot, expiresAt: claims.expiresAt };
  }

  private async load(
    id: string,
    accountId: string | undefined,
    now: Date = new Date(),
  ): Promise<StoredScreenshot | undefined> {
    const row = await this.db.prisma.screenshot.findFirst({
      where: { id, ...(accountId ? { accountId } : {}), expiresAt: { gt: now } },
      select: { storage: true, png: true, width: true, height: true, expiresAt: true },
    });
    if (!row) return undefined;
    let png: Buffer | undefined;
    if (row.storage === 'postgres') png = row.png ? Buffer.from(row.png) : undefined;
    else if (this.bucket) png = await this.bucket.get(this.objectKey(id));
    if (!png) return undefined;
    return { png, width: row.width, height: row.height, expiresAt: row.expiresAt };
  }

  private urlKey(): Promise<Buffer> {
    if (!this.urlKeyPromise) {
      const secret = this.settings.urlSecret;
      const resolving = (
        secret !== undefined
          ? Promise.resolve(secret)
          : new DeploymentSecretsRepository(this.db).getOrCreate(URL_SECRET_NAME)
      ).then((s) => derivePurposeKey(s, URL_KEY_PURPOSE));
      this.urlKeyPromise = resolving;
      resolving.catch(() => {
        if (this.urlKeyPromise === resolving) this.urlKeyPromise = undefined;
      });
    }
    return this.urlKeyPromise;
  }

  /**
   * Delete screenshots expired at `now`: bucket objects first, then their rows, so a failed object
   * delete keeps its row and the next sweep tries again. Plain DELETE … WHERE: several replicas
   * sweeping at once only repeat idempotent deletes. Answers the rows deleted. Rows in the bucket
   * stay while no bucket is configured (nothing could delete their objects).
   */
  async purgeExpired(
    now: Date = new Date(),
    opts: { onError?: (err: unknown) => void } = {},
  ): Promise<number> {
    let purged = 0;
    const bucket = this.bucket;
    if (bucket) {
      for (let round = 0; round < PURGE_MAX_ROUNDS; round++) {
        const rows = await this.db.prisma.screenshot.findMany({
          where: { storage: 's3', expiresAt: { lte: now } },
          select: { id: true },
          orderBy: { expiresAt: 'asc' },
          take: PURGE_BATCH,
        });
        if (rows.length === 0) break;
        const deleted: string[] = [];
        let failed = false;
        await forEachLimited(rows, PURGE_CONCURRENCY, async ({ id }) => {
          try {
            await bucket.delete(this.objectKey(id));
            deleted.push(id);
          } catch (err) {
            failed = true;
            opts.onError?.(err);
          }
        });
        if (deleted.length > 0) {
          const r = await this.db.prisma.screenshot.deleteMany({ where: { id: { in: deleted } } });
          purged += r.count;
        }
        // A failing bucket would hand back the same rows forever: stop and leave them to the next sweep.
        if (failed || rows.length < PURGE_BATCH) break;
      }
    }
    const r = await this.db.prisma.screenshot.deleteMany({
      where: { storage: 'postgres', expiresAt: { lte: now } },
    });
    return purged + r.count;
  }

  private objectKey(id: string): string {
    return `${this.settings.s3?.prefix ?? ''}${id}.png`;
  }
}

async function forEachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await fn(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

/**
 * The page-store variables as `pageStoreEnv` (@wcs/config) parses them; structural, so @wcs/db
 * needs no runtime dependency on the config package.
 */
export interface ScreenshotStoreEnv {
  /** Unset: `http://localhost:3002` (the gateway rewrites the origin to the caller's in its answers). */
  PUBLIC_URL?: string | undefined;
  SCREENSHOT_URL_SECRET?: string | undefined;
  SCREENSHOT_TTL_HOURS: number;
  SCREENSHOT_STORAGE: ScreenshotStorage;
  S3_ENDPOINT?: string | undefined;
  S3_BUCKET?: string | undefined;
  S3_REGION: string;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_PREFIX: string;
}

/** Where screenshot URLs point when PUBLIC_URL is unset: the gateway's default port on this host. */
export const DEFAULT_PUBLIC_URL = 'http://localhost:3002';

/** The screenshot store of a service, from its parsed environment. */
export function createScreenshotStore(env: ScreenshotStoreEnv, db: Db): ScreenshotsRepository {
  const { S3_ENDPOINT: endpoint, S3_BUCKET: bucket } = env;
  const { S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey } = env;
  const s3 =
    endpoint && bucket && accessKeyId && secretAccessKey
      ? { endpoint, bucket, region: env.S3_REGION, accessKeyId, secretAccessKey, prefix: env.S3_PREFIX }
      : undefined;
  return new ScreenshotsRepository(db, {
    publicUrl: (env.PUBLIC_URL ?? DEFAULT_PUBLIC_URL).replace(/\/+$/, ''),
    urlSecret: env.SCREENSHOT_URL_SECRET,
    ttlMs: env.SCREENSHOT_TTL_HOURS * 3_600_000,
    storage: env.SCREENSHOT_STORAGE,
    ...(s3 ? { s3 } : {}),
  });
}
