export * from './answer-validator';
export * from './anthropic.provider';
export * from './extractor';
export * from './llm-provider';
export * from './openai.provider';
export * from './provider-from-env';
export * from './schema-compiler';
export * from './token-budget';
