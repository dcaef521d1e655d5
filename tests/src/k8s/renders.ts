/**
 * The renders of infra/k8s (base and each overlay) and what each service's main.ts really hands
 * serviceMain: shared by the offline manifest checks and the checks against running parts.
 */
import path from 'node:path';
import type { QueueName } from '@wcs/queues';
import { type K8sObject, renderKustomization } from './kustomize';
import { K8S_DIR, overlays, ROOT, type Service } from './manifests';

export const RENDERS = ['base', ...overlays()];
const render = (dir: string) => renderKustomization(path.join(K8S_DIR, dir));
export const rendered = Object.fromEntries(RENDERS.map((d) => [d, render(d)])) as Record<string, K8sObject[]>;

/** The queues each KEDA-scaled worker consumes (also read from their sources in k8s-runtime.test.ts). */
export const SCALED_WORKERS: Partial<Record<Service, QueueName[]>> = {
  'scrape-worker': ['scrape', 'scrape-batch'],
  'crawl-worker': ['crawl', 'crawl-page', 'map'],
  'extract-worker': ['extract'],
};

export type Loader = (env: NodeJS.ProcessEnv) => { [k: string]: unknown };
export interface Captured {
  loadEnv: Loader;
  shutdownDeadlineMs?: (env: never) => number;
}

const mains = new Map<Service, Captured>();
/**
 * What services/<name>/src/main.ts hands serviceMain (its env loader and shutdown deadline), read by
 * loading main.ts with serviceMain replaced, so nothing starts.
 */
export function mainOf(service: Service): Captured {
  const known = mains.get(service);
  if (known) return known;
  let captured: Captured | undefined;
  jest.isolateModules(() => {
    jest.doMock('@wcs/runtime', () => ({
      ...jest.requireActual('@wcs/runtime'),
      serviceMain: (_entry: unknown, opts: Captured) => {
        captured = opts;
        return () => undefined;
      },
    }));
    require(path.join(ROOT, 'services', service, 'src/main.ts'));
  });
  jest.dontMock('@wcs/runtime');
  if (!captured) throw new Error(`services/${service}/src/main.ts did not call serviceMain`);
  mains.set(service, captured);
  return captured;
}
