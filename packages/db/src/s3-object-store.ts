import { createHash } from 'node:crypto';
import { ServiceUnavailableError } from '@wcs/errors';
import { AwsClient } from 'aws4fetch';

/** An S3-compatible bucket, addressed path-style (`<endpoint>/<bucket>/<key>`). */
export interface S3Settings {
  /** http(s) base URL without a trailing slash, e.g. http://minio:9000. */
  endpoint: string;
  bucket: string;
  /** SigV4 signing region (`auto` for R2). */
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

const EMPTY_SHA256 = createHash('sha256').update('').digest('hex');
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * PUT, GET and DELETE of whole objects, signed with AWS Signature V4 (aws4fetch). Path-style
 * URLs work against MinIO, R2, Ceph and AWS alike. The payload hash is signed (not
 * UNSIGNED-PAYLOAD) so plain-HTTP endpoints keep the body's integrity too. Errors name the
 * operation and the status, never the credentials.
 */
export class S3ObjectStore {
  private readonly client: AwsClient;

  constructor(
    private readonly s3: S3Settings,
    private readonly opts: { timeoutMs?: number; retries?: number } = {},
  ) {
    this.client = new AwsClient({
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
      service: 's3',
      region: s3.region,
      // aws4fetch retries 5xx and 429 with backoff; its default (10) would hold a scrape for long.
      retries: opts.retries ?? 2,
      initRetryMs: 100,
    });
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const res = await this.send('PUT', key, {
      // A copy on a plain ArrayBuffer: fetch's BodyInit refuses views that may sit on shared memory.
      body: new Uint8Array(body),
      headers: {
        'Content-Type': contentType,
        'X-Amz-Content-Sha256': createHash('sha256').update(body).digest('hex'),
      },
    });
    if (!res.ok) throw await this.failure('PUT', res);
    await drain(res);
  }

  /** The object's bytes, or undefined when it does not exist. */
  async get(key: string): Promise<Buffer | undefined> {
    const res = await this.send('GET', key);
    if (res.status === 404) {
      await drain(res);
      return undefined;
    }
    if (!res.ok) throw await this.failure('GET', res);
    return Buffer.from(await res.arrayBuffer());
  }

  /** Idempotent: deleting a missing object succeeds (S3 answers 204 either way). */
  async delete(key: string): Promise<void> {
    const res = await this.send('DELETE', key);
    if (!res.ok && res.status !== 404) throw await this.failure('DELETE', res);
    await drain(res);
  }

  private async send(
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    init: { body?: Uint8Array<ArrayBuffer>; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const url = `${this.s3.endpoint}/${encodeURIComponent(this.s3.bucket)}/${key
      .split('/')
      .map(encodeURIComponent)
      .join('/')}`;
    try {
      return await this.client.fetch(url, {
        method,
        headers: { 'X-Amz-Content-Sha256': EMPTY_SHA256, ...init.headers },
        ...(init.body ? { body: init.body } : {}),
        signal: AbortSignal.timeout(this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (err) {
      throw new ServiceUnavailableError(`Screenshot storage (S3) unreachable on ${method}`, {
        cause: err,
      });
    }
  }

  private async failure(method: string, res: Response): Promise<ServiceUnavailableError> {
    // S3 puts a short error code in an XML body (SignatureDoesNotMatch, NoSuchBucket, …).
    const text = await res.text().catch(() => '');
    const code = /<Code>([\w.-]{1,64})<\/Code>/.exec(text)?.[1];
    return new ServiceUnavailableError(
      `Screenshot storage (S3) answered ${res.status}${code ? ` ${code}` : ''} to ${method}`,
    );
  }
}

async function drain(res: Response): Promise<void> {
  await res.arrayBuffer().catch(() => undefined);
}
