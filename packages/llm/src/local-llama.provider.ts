/**
 * The embedded model: `LLM_PROVIDER=local` runs the operator's GGUF file (LLM_MODEL_PATH) in this
 * process with node-llama-cpp on the CPU — its prebuilt binary from npm (`build: "never"`: never
 * a source build, never a download). The package is an optional dependency, imported only when
 * this provider makes its first call, so nothing else pays for its ~70 MB. The answer is decoded
 * under a grammar made from the JSON schema (`createGrammarForJsonSchema`), so even a weak model
 * can only write schema-shaped JSON; the extractor still validates it. One context, one
 * generation at a time (calls queue); the call's deadline and the job's signal abort a generation
 * mid-way.
 */
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ExtractionFailedError, ModelNotConfiguredError, TimeoutError } from '@wcs/errors';
import type { LlmAnswer, LlmProvider, LlmRequest } from './llm-provider';
import type { JsonSchema } from './schema-compiler';

/**
 * The part of node-llama-cpp 3.x used here, typed locally: the package is optional (this must
 * typecheck without it) and ESM-only (its declarations cannot be imported from CommonJS).
 */
interface Grammar {
  readonly type?: string;
}
interface LlamaContext {
  readonly contextSize: number;
  getSequence(): unknown;
  dispose(): Promise<void>;
}
interface LlamaModel {
  /** The context the model was trained on (node-llama-cpp 3.x); a longer one reads garbage. */
  readonly trainContextSize?: number;
  tokenize(text: string): readonly unknown[];
  createContext(o: { contextSize: number; threads: number; sequences: number }): Promise<LlamaContext>;
  dispose(): Promise<void>;
}
interface Llama {
  loadModel(o: { modelPath: string; gpuLayers: number }): Promise<LlamaModel>;
  createGrammarForJsonSchema(schema: unknown): Promise<Grammar>;
  dispose(): Promise<void>;
}
interface ChatSession {
  readonly chatWrapper: { readonly wrapperName: string };
  prompt(
    text: string,
    o: {
      grammar: Grammar;
      maxTokens: number;
      temperature: number;
      signal: AbortSignal;
      onToken: (tokens: readonly unknown[]) => void;
    },
  ): Promise<string>;
  dispose(o: { disposeSequence: boolean }): void;
}
interface NodeLlamaCpp {
  getLlama(o: { gpu: false; build: 'never'; logLevel: unknown }): Promise<Llama>;
  LlamaLogLevel: { error: unknown };
  LlamaChatSession: new (o: { contextSequence: unknown; systemPrompt: string }) => ChatSession;
}

export interface LocalLlamaOptions {
  modelPath: string;
  /** Context window (prompt + answer), tokens. */
  contextTokens: number;
  threads: number;
}

interface Loaded {
  lib: NodeLlamaCpp;
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
}

// A real dynamic import: node-llama-cpp is ESM with top-level await, which require() (what a
// CommonJS build turns `import()` into) cannot load.
const importEsm = new Function('specifier', 'return import(specifier)') as (s: string) => Promise<unknown>;

export class LocalLlamaProvider implements LlmProvider {
  readonly name = 'local' as const;
  readonly model: string;
  private loading: Promise<Loaded> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly grammars = new Map<string, Grammar>();
  /** The chat template node-llama-cpp chose for the model (from its GGUF), once a call ran. */
  chatWrapperName: string | undefined;

  constructor(private readonly o: LocalLlamaOptions) {
    this.model = basename(o.modelPath);
  }

  /** Loads the library, the model and its context (also done by the first call). */
  load(): Promise<Loaded> {
    this.loading ??= this.doLoad().catch((err: unknown) => {
      this.loading = undefined;
      throw err;
    });
    return this.loading;
  }

  private async doLoad(): Promise<Loaded> {
    let lib: NodeLlamaCpp;
    try {
      // Resolved from this file (a bare specifier in `importEsm` would resolve from the working
      // directory; pnpm keeps the package beside @wcs/llm only).
      lib = (await importEsm(pathToFileURL(require.resolve('node-llama-cpp')).href)) as NodeLlamaCpp;
    } catch (err) {
      throw new ModelNotConfiguredError(
        'LLM_PROVIDER=local needs the optional package node-llama-cpp (with @node-llama-cpp/linux-x64) installed on the extract-worker',
        { cause: err },
      );
    }
    try {
      const llama = await lib.getLlama({ gpu: false, build: 'never', logLevel: lib.LlamaLogLevel.error });
      const model = await llama.loadModel({ modelPath: this.o.modelPath, gpuLayers: 0 });
      const context = await model.createContext({
        contextSize: Math.min(this.o.contextTokens, model.trainContextSize || Number.POSITIVE_INFINITY),
        threads: this.o.threads,
        sequences: 1,
      });
      return { lib, llama, model, context };
    } catch (err) {
      throw new ExtractionFailedError(
        `The local model could not be loaded from LLM_MODEL_PATH (${this.model}): ${(err as Error).message}`,
        { cause: err },
      );
    }
  }

  async close(): Promise<void> {
    const loaded = await this.loading?.catch(() => undefined);
    this.loading = undefined;
    if (!loaded) return;
    await loaded.context.dispose();
    await loaded.model.dispose();
    await loaded.llama.dispose();
  }

  /** The loaded context's size (LLM_CONTEXT_TOKENS, at most the model's trained context). */
  async contextTokens(): Promise<number> {
    return (await this.load()).context.contextSize;
  }

  /** Tokens of `text` in the model's tokenizer. */
  async countTokens(text: string): Promise<number> {
    return (await this.load()).model.tokenize(text).length;
  }

  /** One generation at a time: chunks of a long page come one by one, each with its whole budget. */
  readonly maxConcurrency = 1;

  complete(req: LlmRequest): Promise<LlmAnswer> {
    const deadline = AbortSignal.timeout(req.timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, deadline]) : deadline;
    // One generation at a time on the one context: a waiting call still honours its deadline.
    const turn = this.queue.then(
      () => this.generate(req, signal),
      () => this.generate(req, signal),
    );
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async generate(req: LlmRequest, signal: AbortSignal): Promise<LlmAnswer> {
    if (signal.aborted) throw abortError(req);
    const { lib, llama, model, context } = await this.load();
    const grammar = await this.grammarFor(llama, req);
    const user = req.repair
      ? `${req.user}\n\nYour previous answer:\n${req.repair.previousText ?? JSON.stringify(req.repair.previous)}\nIt does not match the schema:\n${req.repair.errors.join('\n')}\nAnswer again with corrected JSON.`
      : req.user;
    const inputTokens = model.tokenize(`${req.system}\n${user}`).length;
    if (inputTokens + Math.min(req.maxTokens, 256) > context.contextSize) {
      throw new ExtractionFailedError(
        `The page (${inputTokens} tokens) does not fit the local model's context (${context.contextSize}); raise LLM_CONTEXT_TOKENS or lower EXTRACT_INPUT_TOKEN_BUDGET`,
      );
    }
    const sequence = context.getSequence();
    const session = new lib.LlamaChatSession({ contextSequence: sequence, systemPrompt: req.system });
    this.chatWrapperName = session.chatWrapper.wrapperName;
    let outputTokens = 0;
    try {
      const text = await session.prompt(user, {
        grammar,
        maxTokens: req.maxTokens,
        temperature: 0,
        signal,
        onToken: (tokens) => {
          outputTokens += tokens.length;
        },
      });
      return { text, inputTokens, outputTokens };
    } catch (err) {
      if (signal.aborted) throw abortError(req);
      throw new ExtractionFailedError(`The local model failed: ${(err as Error).message}`, { cause: err });
    } finally {
      session.dispose({ disposeSequence: true });
    }
  }

  private async grammarFor(llama: Llama, req: LlmRequest): Promise<Grammar> {
    const key = req.freeForm ? '<free>' : JSON.stringify(req.jsonSchema);
    const known = this.grammars.get(key);
    if (known) return known;
    const schema = req.freeForm
      ? { type: 'object', additionalProperties: true }
      : toGrammarSchema(req.jsonSchema);
    const grammar = await llama.createGrammarForJsonSchema(
      schema as Parameters<Llama['createGrammarForJsonSchema']>[0],
    );
    if (this.grammars.size >= 100) this.grammars.clear();
    this.grammars.set(key, grammar);
    return grammar;
  }
}

/** The job's own reason (cancel, deadline) when its signal fired, else our call's timeout. */
function abortError(req: LlmRequest): unknown {
  if (req.signal?.aborted) return req.signal.reason ?? new TimeoutError('Extraction was cancelled');
  return new TimeoutError('Extraction timed out waiting for the local model; retry');
}

/**
 * Our compiled schema in the subset node-llama-cpp's grammar builder reads: a nullable object or
 * array (`type: ["object", "null"]`) becomes `oneOf: [<object>, { type: "null" }]`; nullable
 * primitives keep their type list.
 */
export function toGrammarSchema(schema: JsonSchema): JsonSchema {
  const t = schema.type;
  const list = Array.isArray(t) ? (t as string[]) : typeof t === 'string' ? [t] : [];
  const main = list.find((x) => x === 'object' || x === 'array');
  if (!main) return list.length > 0 ? { type: list.length === 1 ? list[0] : list } : {};
  const body: JsonSchema =
    main === 'object'
      ? {
          type: 'object',
          properties: Object.fromEntries(
            Object.entries((schema.properties as Record<string, JsonSchema>) ?? {}).map(([k, v]) => [
              k,
              toGrammarSchema(v),
            ]),
          ),
          additionalProperties: false,
        }
      : { type: 'array', items: toGrammarSchema((schema.items as JsonSchema) ?? {}) };
  return list.includes('null') ? { oneOf: [body, { type: 'null' }] } : body;
}
