import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mapWorkerEnvSchema } from '@wcs/crawl-worker';
import { SERVICE_ENV_SCHEMAS } from './service-env-schemas';

/** Each service parses only the variables it uses, and every one of them is documented. */
const ROOT = path.resolve(__dirname, '../..');
const services = SERVICE_ENV_SCHEMAS;
const variables = (schema: { shape: object }) => Object.keys(schema.shape);
const readers = (name: string) =>
  Object.entries(services)
    .filter(([, schema]) => variables(schema).includes(name))
    .map(([service]) => service);

describe('service environments', () => {
  it('batch settings are the scrape-worker’s alone', () => {
    for (const v of [
      'BATCH_ITEM_TIMEOUT_MS',
      'BATCH_ITEM_MAX_STARTS',
      'RECONCILE_INTERVAL_MS',
      'RECONCILE_MIN_AGE_MS',
    ]) {
      expect([v, readers(v)]).toEqual([v, ['scrape-worker']]);
    }
  });

  it('monitor, webhook, search and gateway settings stay with their service', () => {
    expect(readers('MONITOR_CHECK_TIMEOUT_MS')).toEqual(['monitor-scheduler']);
    expect(readers('WEBHOOK_TIMEOUT_MS')).toEqual(['webhook-dispatcher']);
    expect(readers('SEARCH_PROVIDER')).toEqual(['gateway']);
    expect(readers('SHUTDOWN_DRAIN_MS')).toEqual(['gateway']);
    expect(readers('CRAWL_HOST_CONCURRENCY')).toEqual(['crawl-worker']);
    expect(readers('EXTRACT_WORKER_CONCURRENCY')).toEqual(['extract-worker']);
  });

  it('only services that fetch pages read fetch settings; only renderers read the browser’s', () => {
    // The gateway reads ALLOW_PRIVATE_TARGETS alone of them: monitor and webhook URLs are refused at creation.
    expect(readers('FETCH_TIMEOUT_MS')).not.toContain('gateway');
    expect(readers('ALLOW_PRIVATE_TARGETS')).toContain('gateway');
    expect(readers('BROWSER_MAX_PAGES').sort()).toEqual(
      ['crawl-worker', 'extract-worker', 'monitor-scheduler', 'scrape-worker'].sort(),
    );
    expect(variables(mapWorkerEnvSchema)).toContain('BROWSER_MAX_PAGES');
  });

  it('the extract-worker and a map worker alone need no database and no WORKER_CONCURRENCY', () => {
    for (const schema of [services['extract-worker'], mapWorkerEnvSchema]) {
      expect(variables(schema)).not.toContain('DATABASE_URL');
      expect(variables(schema)).not.toContain('WORKER_CONCURRENCY');
      expect(variables(schema)).toEqual(expect.arrayContaining(['REDIS_URL', 'WORKER_LOCK_MS']));
    }
    expect(readers('DATABASE_URL')).not.toContain('extract-worker');
  });

  it('every variable a service reads is documented (root README or the service’s), and every documented one is read', () => {
    const root = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const table = root.slice(root.indexOf('## Configuration'), root.indexOf('## Layout'));
    const documented = new Set(
      [...table.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]).filter((v) => v !== undefined),
    );
    const undocumented: string[] = [];
    for (const [service, schema] of Object.entries(services)) {
      const own = readFileSync(path.join(ROOT, 'services', service, 'README.md'), 'utf8');
      for (const v of variables(schema)) {
        if (v !== 'NODE_ENV' && !documented.has(v) && !own.includes(`\`${v}\``)) {
          undocumented.push(`${service}: ${v}`);
        }
      }
    }
    expect(undocumented).toEqual([]);
    const read = new Set([...Object.values(services), mapWorkerEnvSchema].flatMap(variables));
    expect([...documented].filter((v) => !read.has(v))).toEqual([]);
  });
});
