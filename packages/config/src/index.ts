export * from './batch.env';
export * from './crawl.env';
export * from './discovery.env';
export * from './extract.env';
export * from './load-env';
export * from './monitor.env';
export * from './schemas';
export * from './search.env';
