import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { createLogger } from '@wcs/logger';
import { QueueProducer } from '@wcs/queues';

/**
 * Redis errors reach the logs (rate-limited, no password): a producer pointed at a port nothing
 * listens on, its logger writing into a stream this test reads.
 */
describe('QueueProducer against a Redis that is down', () => {
  it('logs rate-limited "redis error" lines through the logger, without the password', async () => {
    // A port nothing listens on.
    const port = await new Promise<number>((resolve) => {
      const srv = createServer().listen(0, '127.0.0.1', () => {
        const addr = srv.address();
        srv.close(() => resolve(typeof addr === 'object' && addr ? addr.port : 0));
      });
    });
    const out: Array<Record<string, unknown>> = [];
    let raw = '';
    const destination = new Writable({
      write(chunk, _enc, done) {
        raw += String(chunk);
        for (const line of String(chunk).split('\n').filter(Boolean)) out.push(JSON.parse(line));
        done();
      },
    });
    const logger = createLogger({ service: 'test', level: 'info' }, destination);
    const intervalMs = 1_000;
    const started = Date.now();
    const producer = new QueueProducer(`redis://app:s3cret-pw@127.0.0.1:${port}`, 'down-test', {
      logger,
      errorLogIntervalMs: intervalMs,
    });
    try {
      // A BullMQ Queue on the producer's connection re-emits its errors: same role, same budget.
      producer.queue('crawl');
      const deadline = Date.now() + 15_000;
      const producerLines = () => out.filter((l) => l.msg === 'redis error' && l.role === 'producer');
      while (!producerLines().some((l) => Number(l.suppressed) > 0)) {
        if (Date.now() > deadline) throw new Error(`no rate-limited line in time: ${raw}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      const elapsed = Date.now() - started;
      const lines = producerLines();
      expect(lines[0]).toMatchObject({ level: 50, role: 'producer', code: 'ECONNREFUSED', suppressed: 0 });
      // At most one line per interval for the role (plus the first one).
      expect(lines.length).toBeLessThanOrEqual(Math.floor(elapsed / intervalMs) + 1);
      expect(raw).not.toContain('s3cret-pw');
    } finally {
      await producer.close();
    }
  }, 30_000);
});
