import { mapWorkerEnvSchema } from '@wcs/crawl-worker';
import { ENV_DOCS } from '../../scripts/docs/env-docs';
import { envDocs } from '../../scripts/docs-reference';
import { SERVICE_ENV_SCHEMAS } from './service-env-schemas';

/** Each service parses only the variables it uses, and every one of them is documented. */
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

  it('every variable a service reads is documented (its .describe() or env-docs.ts), and every line is read', () => {
    // docs/reference/configuration.md is generated from these (its drift test); envDocs throws naming
    // the variables that have no doc.
    const docs = envDocs();
    const undocumented: string[] = [];
    for (const [service, schema] of Object.entries(services)) {
      for (const v of variables(schema)) if (!docs.has(v)) undocumented.push(`${service}: ${v}`);
    }
    expect(undocumented).toEqual([]);
    const documented = new Set(ENV_DOCS.flatMap(([names]) => names));
    const read = new Set([...Object.values(services), mapWorkerEnvSchema].flatMap(variables));
    expect([...documented].filter((v) => !read.has(v))).toEqual([]);
  });
});
