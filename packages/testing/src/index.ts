export * from './crawl-fixture-pages';
export * from './fake-anthropic';
export * from './fake-openai';
export * from './fixture-site';
export * from './local-server';
export * from './map-site';
export * from './searxng-fixture';
export * from './strict-slash-site';
