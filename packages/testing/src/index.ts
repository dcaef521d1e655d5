export * from './crawl-fixture-pages';
export * from './fixture-site';
export * from './map-site';
export * from './searxng-fixture';
