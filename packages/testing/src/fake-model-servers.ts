/**
 * Local stand-ins for the self-hosted model servers, each answering in its own wire format and
 * each checking that the schema arrives the way the real server reads it (else a 400 like the
 * real one gives for a malformed request):
 * - Ollama `POST /api/chat`: `format` is the JSON schema object (or "json"); answers
 *   `{ message: { content }, done, prompt_eval_count, eval_count }`, errors as `{ error }`.
 * - vLLM `POST /v1/chat/completions`: `guided_json` and/or `response_format.json_schema.schema`.
 * - llama.cpp `POST /v1/chat/completions`: the `json_schema` field.
 * `reply.text` is sent verbatim as the content (malformed answers); `reply.data` as JSON. Asked to
 * stream (`stream: true`), each answers in its streaming format (SSE chunks, Ollama's NDJSON), with
 * the reply's stalls (`firstTokenDelayMs`, `pieceDelayMs`, `stallAfterPieces`).
 */
import {
  answerPieces,
  type FakeLlmReply,
  type FakeLlmScript,
  type FakeLlmServer,
  type RecordedLlmRequest,
  type StreamPlan,
  startFakeLlmServer,
} from './fake-llm-server';

const content = (reply: FakeLlmReply) => reply.text ?? JSON.stringify(reply.data ?? {});

function isSchemaObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && 'type' in v;
}

function openAiBody(reply: FakeLlmReply, req: RecordedLlmRequest) {
  return {
    id: `chatcmpl-fake-${Date.now()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: typeof req.body.model === 'string' ? req.body.model : 'fake',
    choices: [{ index: 0, message: { role: 'assistant', content: content(reply) }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: reply.usage?.input ?? 100,
      completion_tokens: reply.usage?.output ?? 20,
      total_tokens: (reply.usage?.input ?? 100) + (reply.usage?.output ?? 20),
    },
  };
}

const sse = (data: unknown) => `data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** OpenAI-compatible `stream: true`: a role chunk, content deltas, finish, usage, `[DONE]`. */
export function openAiStream(reply: FakeLlmReply, req: RecordedLlmRequest): StreamPlan {
  const id = `chatcmpl-fake-${Date.now()}`;
  const model = typeof req.body.model === 'string' ? req.body.model : 'fake';
  const chunk = (delta: unknown, finish: string | null = null) =>
    sse({
      id,
      object: 'chat.completion.chunk',
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const usage = {
    prompt_tokens: reply.usage?.input ?? 100,
    completion_tokens: reply.usage?.output ?? 20,
    total_tokens: (reply.usage?.input ?? 100) + (reply.usage?.output ?? 20),
  };
  return {
    contentType: 'text/event-stream',
    head: [chunk({ role: 'assistant', content: '' }), ': keep-alive\n\n'],
    pieces: answerPieces(content(reply)).map((p) => chunk({ content: p })),
    tail: [
      chunk({}, 'stop'),
      sse({ id, object: 'chat.completion.chunk', model, choices: [], usage }),
      sse('[DONE]'),
    ],
  };
}

/** Ollama's `stream: true`: one JSON line per piece, then the `done` line with the counts. */
function ollamaStream(reply: FakeLlmReply, req: RecordedLlmRequest): StreamPlan {
  const line = (v: unknown) => `${JSON.stringify(v)}\n`;
  const base = { model: req.body.model, created_at: new Date().toISOString() };
  return {
    contentType: 'application/x-ndjson',
    head: [],
    pieces: answerPieces(content(reply)).map((p) =>
      line({ ...base, message: { role: 'assistant', content: p }, done: false }),
    ),
    tail: [
      line({
        ...base,
        message: { role: 'assistant', content: '' },
        done: true,
        done_reason: 'stop',
        prompt_eval_count: reply.usage?.input ?? 100,
        eval_count: reply.usage?.output ?? 20,
      }),
    ],
  };
}

export function startFakeOllama(script: FakeLlmScript = () => ({ data: {} })): Promise<FakeLlmServer> {
  return startFakeLlmServer(
    ['/api/chat'],
    (reply, req) => {
      if (reply.status && reply.status >= 400) {
        return {
          status: reply.status,
          body: {
            error: reply.status === 404 ? `model '${String(req.body.model)}' not found` : 'fake failure',
          },
        };
      }
      const f = req.body.format;
      if (f !== 'json' && !isSchemaObject(f)) return { status: 400, body: { error: 'invalid format' } };
      return {
        status: 200,
        body: {
          model: req.body.model,
          created_at: new Date().toISOString(),
          message: { role: 'assistant', content: content(reply) },
          done: true,
          done_reason: 'stop',
          prompt_eval_count: reply.usage?.input ?? 100,
          eval_count: reply.usage?.output ?? 20,
        },
      };
    },
    script,
    (reply, req) =>
      isSchemaObject(req.body.format) || req.body.format === 'json' ? ollamaStream(reply, req) : null,
  );
}

/** Why vLLM would refuse the request (no guided decoding, or two schemas that differ), or null. */
function vllmRefusal(req: RecordedLlmRequest): string | null {
  const rf = req.body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined;
  const guided = req.body.guided_json;
  const schemaSent = guided !== undefined || rf?.type === 'json_schema';
  if (rf?.type !== 'json_object' && !schemaSent) return 'no guided decoding requested';
  if (
    guided !== undefined &&
    rf?.json_schema &&
    JSON.stringify(guided) !== JSON.stringify(rf.json_schema.schema)
  ) {
    return 'guided_json and response_format differ';
  }
  return null;
}

export function startFakeVllm(script: FakeLlmScript = () => ({ data: {} })): Promise<FakeLlmServer> {
  return startFakeLlmServer(
    ['/v1/chat/completions'],
    (reply, req) => {
      if (reply.status && reply.status >= 400) {
        return {
          status: reply.status,
          body: { object: 'error', message: 'fake error', type: 'BadRequestError', code: reply.status },
        };
      }
      const refusal = vllmRefusal(req);
      if (refusal) return { status: 400, body: { object: 'error', message: refusal, code: 400 } };
      return { status: 200, body: openAiBody(reply, req) };
    },
    script,
    (reply, req) => (vllmRefusal(req) ? null : openAiStream(reply, req)),
  );
}

export function startFakeLlamaCpp(script: FakeLlmScript = () => ({ data: {} })): Promise<FakeLlmServer> {
  return startFakeLlmServer(
    ['/v1/chat/completions', '/completion'],
    (reply, req) => {
      if (reply.status && reply.status >= 400) {
        return {
          status: reply.status,
          body: { error: { code: reply.status, message: 'fake error', type: 'server_error' } },
        };
      }
      if (!isSchemaObject(req.body.json_schema)) {
        return {
          status: 400,
          body: { error: { code: 400, message: 'json_schema missing', type: 'invalid_request_error' } },
        };
      }
      return { status: 200, body: openAiBody(reply, req) };
    },
    script,
    (reply, req) => (isSchemaObject(req.body.json_schema) ? openAiStream(reply, req) : null),
  );
}
