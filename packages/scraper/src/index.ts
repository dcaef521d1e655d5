export type { ContentTask } from './content.task';
export * from './content-pool';
export * from './scrape-document';
