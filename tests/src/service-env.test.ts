import { mapWorkerEnvSchema } from '@wcs/crawl-worker';
import { z } from 'zod';
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
  it('batch settings are the scrape-worker’s alone (the gateway reads the item budget to report it)', () => {
    // GET /v1/capabilities lists the batch item's time limit; the gateway never applies it.
    expect(readers('BATCH_ITEM_TIMEOUT_MS')).toEqual(['gateway', 'scrape-worker']);
    for (const v of ['BATCH_ITEM_MAX_STARTS', 'RECONCILE_INTERVAL_MS', 'RECONCILE_MIN_AGE_MS']) {
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

  it('every variable a service reads is documented by the .describe() on its schema field', () => {
    // docs/reference/configuration.md is generated from these (its drift test); envDocs throws naming
    // the variables that have no doc.
    const docs = envDocs();
    const undocumented: string[] = [];
    for (const [service, schema] of [
      ...Object.entries(services),
      ['map worker', mapWorkerEnvSchema] as const,
    ]) {
      for (const v of variables(schema)) if (!docs.get(v)) undocumented.push(`${service}: ${v}`);
    }
    expect(undocumented).toEqual([]);
  });

  it('a variable without a .describe() (or with two different ones) stops the generator, naming it', () => {
    const described = z.object({ A_MS: z.coerce.number().default(1).describe('budget of a') });
    const bare = described.extend({ NEW_SETTING: z.string().default('x') });
    expect(() => envDocs([['svc', described]])).not.toThrow();
    expect(() => envDocs([['svc', bare]])).toThrow(/NEW_SETTING/);
    const other = z.object({ A_MS: z.coerce.number().default(1).describe('something else') });
    expect(() =>
      envDocs([
        ['one', described],
        ['two', other],
      ]),
    ).toThrow(/describe A_MS differently/);
  });
});
