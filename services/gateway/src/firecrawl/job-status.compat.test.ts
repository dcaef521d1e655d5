import {
  batchStatusOf,
  crawlStatusOf,
  cutStatusPage,
  expiresAtOf,
  parseStatusPageQuery,
} from './job-status.compat';

describe('Firecrawl job status', () => {
  it('maps native crawl states, telling a cancel from a failure', () => {
    expect(crawlStatusOf({ status: 'pending', stopReason: null })).toBe('scraping');
    expect(crawlStatusOf({ status: 'processing', stopReason: 'max_pages' })).toBe('scraping');
    expect(crawlStatusOf({ status: 'done', stopReason: 'max_pages' })).toBe('completed');
    expect(crawlStatusOf({ status: 'failed', stopReason: 'cancelled' })).toBe('cancelled');
    expect(crawlStatusOf({ status: 'failed', stopReason: 'out_of_credits' })).toBe('failed');
  });

  it('reads a batch a cancel cut as cancelled once done', () => {
    expect(batchStatusOf({ status: 'processing', cancelled: true })).toBe('scraping');
    expect(batchStatusOf({ status: 'done', cancelled: false })).toBe('completed');
    expect(batchStatusOf({ status: 'done', cancelled: true })).toBe('cancelled');
  });

  it('expires 24 h after the finish, or after the start while running', () => {
    const start = new Date('2026-01-01T00:00:00Z');
    expect(expiresAtOf(start, null)).toBe('2026-01-02T00:00:00.000Z');
    expect(expiresAtOf(start, new Date('2026-01-01T06:00:00Z'))).toBe('2026-01-02T06:00:00.000Z');
  });

  it('cuts a page by size but always delivers one document, and offers next only while more exist', () => {
    const docs = ['a'.repeat(400), 'b'.repeat(400), 'c'.repeat(400)];
    const toDoc = (s: string) => ({ markdown: s });
    const first = cutStatusPage(docs, toDoc, { skip: 0, available: 3, maxBytes: 900 });
    expect(first.data.map((d) => String(d.markdown)[0])).toEqual(['a', 'b']);
    expect(first.nextSkip).toBe(2);
    const huge = cutStatusPage(['x'.repeat(5_000)], toDoc, { skip: 2, available: 3, maxBytes: 900 });
    expect(huge.data).toHaveLength(1);
    expect(huge.nextSkip).toBeNull();
    // Fewer rows than available (more will be listed next time): next points past what was sent.
    expect(cutStatusPage(docs.slice(0, 1), toDoc, { skip: 0, available: 3 }).nextSkip).toBe(1);
    expect(cutStatusPage([], toDoc, { skip: 3, available: 3 }).nextSkip).toBeNull();
  });

  it('parses skip/limit and refuses nonsense', () => {
    expect(parseStatusPageQuery({})).toEqual({ skip: 0, limit: 100 });
    expect(parseStatusPageQuery({ skip: '5', limit: '2' })).toEqual({ skip: 5, limit: 2 });
    expect(() => parseStatusPageQuery({ limit: '0' })).toThrow(/skip and limit/);
    expect(() => parseStatusPageQuery({ skip: '-1' })).toThrow(/skip and limit/);
  });
});
