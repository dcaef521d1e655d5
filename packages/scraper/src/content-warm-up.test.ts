import { ContentPool } from './content-pool';
import { warmContentThreads, warmUpSamplePage } from './content-warm-up';

describe('warmContentThreads', () => {
  const pool = new ContentPool({ threads: 2, idleTimeoutMs: 60_000, taskTimeoutMs: 30_000, heapMb: 512 });
  afterAll(() => pool.close());

  it('starts every thread of an idle pool, which then converts pages as usual', async () => {
    expect(pool.threadCount).toBe(0);
    await warmContentThreads(pool);
    expect(pool.threadCount).toBe(2);
    const out = await pool.run({
      body: warmUpSamplePage(),
      contentType: 'text/html',
      finalUrl: 'http://site.test/a',
      sourceUrl: 'http://site.test/a',
      statusCode: 200,
      format: 'markdown',
      onlyMainContent: true,
      links: true,
    });
    expect(out.data.markdown).toContain('Section 7');
    expect(out.links?.length).toBeGreaterThan(10);
  });

  it('does nothing without threads (in-process conversion) and never rejects on a closed pool', async () => {
    await expect(
      warmContentThreads(
        new ContentPool({ threads: 0, idleTimeoutMs: 100, taskTimeoutMs: 1_000, heapMb: 64 }),
      ),
    ).resolves.toBeUndefined();
    const closed = new ContentPool({ threads: 1, idleTimeoutMs: 100, taskTimeoutMs: 1_000, heapMb: 256 });
    await closed.close();
    await expect(warmContentThreads(closed)).resolves.toBeUndefined();
  });
});
