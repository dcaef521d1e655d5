import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type ListeningServer, listenLocal } from './local-server';

export interface S3FixtureOptions {
  bucket?: string;
  region?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** The fixture's clock for the X-Amz-Date check (tests replaying a published request). */
  now?: () => number;
}

export interface S3RequestRecord {
  method: string;
  /** Object key (without the bucket). */
  key: string;
  status: number;
  /** Why a request was refused (403), for assertions. */
  refused?: string;
}

export interface S3Fixture extends ListeningServer {
  /** Path-style endpoint: objects are at `${endpoint}/${bucket}/${key}`. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The stored objects by key (without the bucket). */
  objects: Map<string, { body: Buffer; contentType: string }>;
  /** Every request answered, in order. */
  requests: S3RequestRecord[];
  /** The next `count` object requests answer `status` (e.g. 503) without touching the objects. */
  failNext(status: number, count?: number): void;
}

const MAX_BODY_BYTES = 64 * 1024 * 1024;
const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;
const UNSIGNED = 'UNSIGNED-PAYLOAD';

/**
 * A local S3-compatible server for tests: objects in memory, path-style PUT/GET/HEAD/DELETE, and
 * every request must carry a valid AWS Signature V4 for the configured key. The signature is
 * recomputed here with node:crypto, independently of the client's signer, so a passing test
 * proves the client signs as S3 expects (a signer bug cannot hide behind the same bug here).
 */
export async function startS3Fixture(opts: S3FixtureOptions = {}): Promise<S3Fixture> {
  const bucket = opts.bucket ?? 'test-bucket';
  const region = opts.region ?? 'us-east-1';
  const accessKeyId = opts.accessKeyId ?? 'AKIDFIXTURE0000000000';
  const secretAccessKey = opts.secretAccessKey ?? 'fixture-secret-key/0123456789abcdefghijklmn';
  const now = opts.now ?? Date.now;
  const objects = new Map<string, { body: Buffer; contentType: string }>();
  const requests: S3RequestRecord[] = [];
  let failures: { status: number; count: number } | null = null;

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const method = req.method ?? 'GET';
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    const [, bucketPart = '', ...keyParts] = rawPath.split('/');
    const key = keyParts.map(safeDecode).join('/');
    const answer = (status: number, code?: string, refused?: string) => {
      requests.push({ method, key, status, ...(refused ? { refused } : {}) });
      if (code) {
        res.writeHead(status, { 'Content-Type': 'application/xml' });
        res.end(method === 'HEAD' ? undefined : errorXml(code, refused ?? code));
      } else {
        res.writeHead(status);
        res.end();
      }
    };

    const refusal = verifySignature(req, rawPath, body, { accessKeyId, secretAccessKey, region }, now());
    if (refusal) return answer(403, refusal.code, refusal.reason);
    if (failures && failures.count > 0) {
      failures.count -= 1;
      return answer(failures.status, 'InternalError', 'injected failure');
    }
    if (safeDecode(bucketPart) !== bucket) return answer(404, 'NoSuchBucket');
    if (key === '') return answer(400, 'InvalidRequest', 'bucket operations are not supported');

    switch (method) {
      case 'PUT': {
        objects.set(key, { body, contentType: req.headers['content-type'] ?? 'binary/octet-stream' });
        requests.push({ method, key, status: 200 });
        res.writeHead(200, { ETag: `"${createHash('md5').update(body).digest('hex')}"` });
        res.end();
        return;
      }
      case 'GET':
      case 'HEAD': {
        const obj = objects.get(key);
        if (!obj) return answer(404, 'NoSuchKey');
        requests.push({ method, key, status: 200 });
        res.writeHead(200, { 'Content-Type': obj.contentType, 'Content-Length': obj.body.length });
        res.end(method === 'GET' ? obj.body : undefined);
        return;
      }
      case 'DELETE':
        // S3 answers 204 whether the object existed or not.
        objects.delete(key);
        return answer(204);
      default:
        return answer(405, 'MethodNotAllowed');
    }
  }

  const listening = await listenLocal(server);
  return {
    ...listening,
    endpoint: listening.url,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    failNext(status, count = 1) {
      failures = { status, count };
    },
  };
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(new Error('body too large'));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** RFC 3986 percent-encoding, as SigV4 wants it (unreserved characters stay). */
function uriEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

const AUTH_RE =
  /^AWS4-HMAC-SHA256 Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/;

/** Returns why the request is refused, or null when its SigV4 signature is valid. */
function verifySignature(
  req: IncomingMessage,
  rawPath: string,
  body: Buffer,
  key: { accessKeyId: string; secretAccessKey: string; region: string },
  nowMs: number,
): { code: string; reason: string } | null {
  const auth = req.headers.authorization;
  if (!auth) return { code: 'AccessDenied', reason: 'no Authorization header' };
  const m = AUTH_RE.exec(auth);
  if (!m) return { code: 'AuthorizationHeaderMalformed', reason: 'not an AWS4-HMAC-SHA256 header' };
  const [, akid, date, region, service, signedHeaderList = '', signature = ''] = m;
  if (akid !== key.accessKeyId) return { code: 'InvalidAccessKeyId', reason: 'unknown access key' };
  if (region !== key.region) return { code: 'AuthorizationHeaderMalformed', reason: `region ${region}` };
  if (service !== 's3') return { code: 'AuthorizationHeaderMalformed', reason: `service ${service}` };

  const amzDate = header(req, 'x-amz-date');
  if (!amzDate || !/^\d{8}T\d{6}Z$/.test(amzDate) || amzDate.slice(0, 8) !== date) {
    return { code: 'AccessDenied', reason: 'missing or inconsistent X-Amz-Date' };
  }
  const at = Date.UTC(
    Number(amzDate.slice(0, 4)),
    Number(amzDate.slice(4, 6)) - 1,
    Number(amzDate.slice(6, 8)),
    Number(amzDate.slice(9, 11)),
    Number(amzDate.slice(11, 13)),
    Number(amzDate.slice(13, 15)),
  );
  if (Math.abs(nowMs - at) > MAX_CLOCK_SKEW_MS) {
    return { code: 'RequestTimeTooSkewed', reason: 'X-Amz-Date too far from now' };
  }

  const signedHeaders = signedHeaderList.split(';');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!signedHeaders.includes(required)) return { code: 'AccessDenied', reason: `${required} not signed` };
  }
  const payloadHash = header(req, 'x-amz-content-sha256') ?? '';
  if (payloadHash !== UNSIGNED && payloadHash !== sha256Hex(body)) {
    return { code: 'XAmzContentSHA256Mismatch', reason: 'payload hash does not match the body' };
  }

  const [, rawQuery = ''] = (req.url ?? '').split('?');
  const canonicalQuery = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const [k = '', v = ''] = pair.split('=');
      return [uriEncode(safeDecode(k.replace(/\+/g, ' '))), uriEncode(safeDecode(v.replace(/\+/g, ' ')))];
    })
    .sort(([a = '', x = ''], [b = '', y = '']) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  // S3 encodes the path once (segments decoded, then RFC 3986-encoded; slashes kept).
  const canonicalUri = rawPath.split('/').map(safeDecode).map(uriEncode).join('/');
  const canonicalHeaders = signedHeaders.map((h) => `${h}:${header(req, h) ?? ''}\n`).join('');
  const canonicalRequest = [
    req.method ?? 'GET',
    canonicalUri,
    canonicalQuery,
    canonicalHeaders,
    signedHeaderList,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(Buffer.from(canonicalRequest))].join(
    '\n',
  );
  const kDate = hmac(`AWS4${key.secretAccessKey}`, date ?? '');
  const kSigning = hmac(hmac(hmac(kDate, region ?? ''), service ?? ''), 'aws4_request');
  const expected = createHmac('sha256', kSigning).update(stringToSign).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { code: 'SignatureDoesNotMatch', reason: 'signature does not match' };
  }
  return null;
}

/** A header's value as SigV4 canonicalises it: repeated headers joined by ',', spaces collapsed. */
function header(req: IncomingMessage, name: string): string | undefined {
  const values: string[] = [];
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    if (req.rawHeaders[i]?.toLowerCase() === name) values.push(req.rawHeaders[i + 1] ?? '');
  }
  if (values.length === 0) return undefined;
  return values.map((v) => v.trim().replace(/\s+/g, ' ')).join(',');
}

function sha256Hex(b: Buffer): string {
  return createHash('sha256').update(b).digest('hex');
}

function hmac(key: string | Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data).digest();
}

function errorXml(code: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}
