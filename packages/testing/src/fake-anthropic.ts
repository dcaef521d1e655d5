/**
 * A local stand-in for Anthropic's Messages API (`POST /v1/messages`): answers with a `tool_use`
 * content block calling the request's first tool (input = the scripted data) plus `usage`, or a
 * text block, or an error in the API's error format; streamed as the API's SSE events when the
 * request asks (`stream: true`). Point the SDK's `baseURL` at `url`.
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

export type { FakeLlmReply, FakeLlmScript, FakeLlmServer, RecordedLlmRequest } from './fake-llm-server';
export { textSeenByModel } from './fake-llm-server';

function render(reply: FakeLlmReply, req: RecordedLlmRequest): { status: number; body: unknown } {
  if (reply.status && reply.status >= 400) {
    const type =
      reply.status === 401
        ? 'authentication_error'
        : reply.status === 429
          ? 'rate_limit_error'
          : reply.status === 529
            ? 'overloaded_error'
            : 'api_error';
    return { status: reply.status, body: { type: 'error', error: { type, message: `fake ${type}` } } };
  }
  const tools = Array.isArray(req.body.tools) ? (req.body.tools as Array<{ name?: string }>) : [];
  const content =
    reply.text !== undefined
      ? [{ type: 'text', text: reply.text }]
      : [
          {
            type: 'tool_use',
            id: `toolu_fake_${Date.now()}`,
            name: tools[0]?.name ?? 'tool',
            input: reply.data ?? {},
          },
        ];
  return {
    status: 200,
    body: {
      id: `msg_fake_${Date.now()}`,
      type: 'message',
      role: 'assistant',
      model: typeof req.body.model === 'string' ? req.body.model : 'fake',
      content,
      stop_reason: reply.text !== undefined ? 'end_turn' : 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: reply.usage?.input ?? 100, output_tokens: reply.usage?.output ?? 20 },
    },
  };
}

const event = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The Messages API's `stream: true`: message_start, one content block in deltas, message_delta. */
function renderStream(reply: FakeLlmReply, req: RecordedLlmRequest): StreamPlan {
  const tools = Array.isArray(req.body.tools) ? (req.body.tools as Array<{ name?: string }>) : [];
  const usage = { input_tokens: reply.usage?.input ?? 100, output_tokens: reply.usage?.output ?? 20 };
  const text = reply.text;
  const start =
    text !== undefined
      ? { type: 'text', text: '' }
      : { type: 'tool_use', id: `toolu_fake_${Date.now()}`, name: tools[0]?.name ?? 'tool', input: {} };
  const deltas = answerPieces(text ?? JSON.stringify(reply.data ?? {})).map((p) =>
    event('content_block_delta', {
      index: 0,
      delta:
        text !== undefined ? { type: 'text_delta', text: p } : { type: 'input_json_delta', partial_json: p },
    }),
  );
  return {
    contentType: 'text/event-stream; charset=utf-8',
    head: [
      event('message_start', {
        message: {
          id: `msg_fake_${Date.now()}`,
          type: 'message',
          role: 'assistant',
          model: typeof req.body.model === 'string' ? req.body.model : 'fake',
          content: [],
          stop_reason: null,
          usage: { input_tokens: usage.input_tokens, output_tokens: 1 },
        },
      }),
      event('ping', {}),
    ],
    pieces: [event('content_block_start', { index: 0, content_block: start }), ...deltas],
    tail: [
      event('content_block_stop', { index: 0 }),
      event('message_delta', {
        delta: { stop_reason: text !== undefined ? 'end_turn' : 'tool_use', stop_sequence: null },
        usage: { output_tokens: usage.output_tokens },
      }),
      event('message_stop', {}),
    ],
  };
}

export function startFakeAnthropic(script: FakeLlmScript = () => ({ data: {} })): Promise<FakeLlmServer> {
  return startFakeLlmServer(['/v1/messages'], render, script, renderStream);
}
