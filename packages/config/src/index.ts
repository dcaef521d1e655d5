export * from './crawl.env';
export * from './discovery.env';
export * from './load-env';
export * from './schemas';
export * from './search.env';
