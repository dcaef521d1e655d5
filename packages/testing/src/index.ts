export * from './fixture-site';
