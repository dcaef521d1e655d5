/**
 * A local stand-in for an OpenAI-compatible chat-completions server (Ollama, vLLM):
 * `POST /v1/chat/completions` answers `choices[0].message.content` = the scripted data as JSON
 * text (or raw text), with `usage`; streamed as SSE chunks when asked. Set OPENAI_BASE_URL to `${url}/v1`.
 */
import {
  type FakeLlmReply,
  type FakeLlmScript,
  type FakeLlmServer,
  startFakeLlmServer,
} from './fake-llm-server';
import { openAiStream } from './fake-model-servers';

function render(reply: FakeLlmReply): { status: number; body: unknown } {
  if (reply.status && reply.status >= 400) {
    return { status: reply.status, body: { error: { message: 'fake error', type: 'server_error' } } };
  }
  return {
    status: 200,
    body: {
      id: `chatcmpl-fake-${Date.now()}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'fake',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: reply.text ?? JSON.stringify(reply.data ?? {}) },
          finish_reason: 'stop',
        },
      ],
      usage: {
        prompt_tokens: reply.usage?.input ?? 100,
        completion_tokens: reply.usage?.output ?? 20,
        total_tokens: (reply.usage?.input ?? 100) + (reply.usage?.output ?? 20),
      },
    },
  };
}

export function startFakeOpenAi(script: FakeLlmScript = () => ({ data: {} })): Promise<FakeLlmServer> {
  return startFakeLlmServer(['/v1/chat/completions'], render, script, openAiStream);
}
