import { request } from 'node:http';
import { type S3Fixture, startS3Fixture } from './s3-fixture';

/** One raw HTTP request (headers exactly as given, Host included). */
function send(
  base: string,
  opts: { method: string; path: string; headers: Record<string, string>; body?: Buffer },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${opts.path}`, { method: opts.method, headers: opts.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

// AWS's published example ("GET Object", Signature V4 with the Authorization header).
const AWS_EXAMPLE = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  now: () => Date.UTC(2013, 4, 24, 0, 0, 0),
};
const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const exampleHeaders = (signature: string) => ({
  Host: 'examplebucket.s3.amazonaws.com',
  Range: 'bytes=0-9',
  'x-amz-content-sha256': EMPTY_SHA256,
  'x-amz-date': '20130524T000000Z',
  Authorization: `AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=${signature}`,
});
const EXAMPLE_SIGNATURE = 'f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41';

describe('S3 fixture signature check', () => {
  let s3: S3Fixture;
  beforeAll(async () => {
    s3 = await startS3Fixture(AWS_EXAMPLE);
  });
  afterAll(() => s3.close());

  test("accepts AWS's published example request (then answers for the missing bucket)", async () => {
    const res = await send(s3.url, {
      method: 'GET',
      path: '/test.txt',
      headers: exampleHeaders(EXAMPLE_SIGNATURE),
    });
    // The signature passed: the request got as far as the bucket lookup.
    expect(res.status).toBe(404);
    expect(res.body).toContain('NoSuchBucket');
  });

  test('refuses the same request with one signature digit changed, or a changed signed header', async () => {
    const bad = `${EXAMPLE_SIGNATURE.slice(0, -1)}0`;
    const a = await send(s3.url, { method: 'GET', path: '/test.txt', headers: exampleHeaders(bad) });
    expect(a.status).toBe(403);
    expect(a.body).toContain('SignatureDoesNotMatch');
    const b = await send(s3.url, {
      method: 'GET',
      path: '/test.txt',
      headers: { ...exampleHeaders(EXAMPLE_SIGNATURE), Range: 'bytes=0-10' },
    });
    expect(b.status).toBe(403);
  });

  test('refuses requests without Authorization, with another key, or out of the clock window', async () => {
    const none = await send(s3.url, { method: 'GET', path: '/test-bucket/x', headers: {} });
    expect(none.status).toBe(403);
    expect(none.body).toContain('AccessDenied');
    const other = exampleHeaders(EXAMPLE_SIGNATURE);
    other.Authorization = other.Authorization.replace('AKIAIOSFODNN7EXAMPLE', 'AKIAOTHERKEY00000000');
    expect((await send(s3.url, { method: 'GET', path: '/test.txt', headers: other })).status).toBe(403);
    const live = await startS3Fixture({ ...AWS_EXAMPLE, now: Date.now });
    try {
      const stale = await send(live.url, {
        method: 'GET',
        path: '/test.txt',
        headers: exampleHeaders(EXAMPLE_SIGNATURE),
      });
      expect(stale.status).toBe(403);
      expect(stale.body).toContain('RequestTimeTooSkewed');
    } finally {
      await live.close();
    }
    expect(s3.objects.size).toBe(0);
  });
});
