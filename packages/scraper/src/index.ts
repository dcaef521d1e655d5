export type { ContentTask } from './content.task';
export * from './content-pool';
export * from './content-warm-up';
export * from './page-cache-key';
export type * from './page-stores';
export * from './scrape-document';
export type * from './shared-worker-resources';
export * from './verdict-outcome';
