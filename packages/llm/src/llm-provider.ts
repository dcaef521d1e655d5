import type { JsonSchema } from './schema-compiler';

/** A previous answer that failed validation, sent back once so the model can repair it. */
export interface RepairTurn {
  /** The previous structured answer (tool input), or null. */
  previous: unknown;
  /** The previous answer's raw text, for providers that answer in text. */
  previousText?: string;
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
  /**
   * Context (tokens: prompt, answer, reserve) the calls of this page need, the same for all its
   * chunks; a provider that sizes the context per request (Ollama's `num_ctx`) asks for this.
   */
  contextTokens?: number;
}

export interface LlmAnswer {
  /** A structured answer (Anthropic's tool input), not yet validated. */
  data?: unknown;
  /** The model's text (every other provider): parsed and repaired by the extractor. */
  text?: string;
  inputTokens: number;
  outputTokens: number;
}

export type ProviderName = 'anthropic' | 'openai' | 'ollama' | 'vllm' | 'llamacpp' | 'local';

/**
 * One interface, several implementations: Anthropic's Messages API (tool use), OpenAI-compatible
 * chat completions (OpenAI, vLLM with guided decoding, llama.cpp's server with `json_schema`),
 * Ollama's native `/api/chat` (`format: <schema>`) and an embedded GGUF model (node-llama-cpp).
 * Failures are ServiceErrors: TimeoutError (504) when the model did not answer in time,
 * ExtractionFailedError (500) otherwise.
 */
export interface LlmProvider {
  readonly name: ProviderName;
  readonly model: string;
  /**
   * Calls it runs at once, when fewer than asked (the embedded model: 1, its calls queue and a
   * queued call's deadline runs): chunks of a long page are never sent to it faster.
   */
  readonly maxConcurrency?: number;
  complete(req: LlmRequest): Promise<LlmAnswer>;
  /**
   * The context window (tokens) every call runs in, when the provider knows it (the embedded
   * model, from its loaded context): long pages are then chunked to fit it. Optional.
   */
  contextTokens?(): Promise<number>;
  /** Tokens of `text` in the model's own tokenizer, when the provider has it (the embedded model). */
  countTokens?(text: string): Promise<number>;
  /** Frees what the provider holds (the embedded model's memory); optional. */
  close?(): Promise<void>;
}

export const TOOL_NAME = 'record_extraction';
