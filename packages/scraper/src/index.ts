export * from './scrape-document';
