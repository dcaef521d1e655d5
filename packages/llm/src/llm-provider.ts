import type { JsonSchema } from './schema-compiler';

/** A previous answer that failed validation, sent back once so the model can repair it. */
export interface RepairTurn {
  previous: unknown;
  errors: string[];
}

export interface LlmRequest {
  system: string;
  /** The user turn: instruction + page (already cut to the token budget). */
  user: string;
  /** The compiled schema the answer must follow. */
  jsonSchema: JsonSchema;
  /** True for prompt-only requests: any JSON object is acceptable (no strict schema). */
  freeForm: boolean;
  maxTokens: number;
  timeoutMs: number;
  signal?: AbortSignal;
  repair?: RepairTurn;
}

export interface LlmAnswer {
  /** The model's structured answer, not yet validated. */
  data: unknown;
  inputTokens: number;
  outputTokens: number;
}

/**
 * One interface, two implementations: Anthropic's Messages API (tool use) and any
 * OpenAI-compatible chat-completions endpoint (JSON-schema output). Failures are ServiceErrors:
 * TimeoutError (504) when the model did not answer in time, ExtractionFailedError (500) otherwise.
 */
export interface LlmProvider {
  readonly name: 'anthropic' | 'openai';
  readonly model: string;
  complete(req: LlmRequest): Promise<LlmAnswer>;
}

export const TOOL_NAME = 'record_extraction';
