/**
 * A loopback model server scripted per test, for the wire-tolerance tests: each test sets
 * `handler` (status, headers, body, a cut connection), the server records every request's path
 * and JSON body in `seen`; and one answer (`good`) in each wire form the servers use: OpenAI SSE
 * chunks, the same chunks as NDJSON, one OpenAI JSON document, Ollama NDJSON, the same lines as
 * SSE, one Ollama JSON document.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type ListeningServer, listenLocal } from '@wcs/testing';
import type { LlmProvider, LlmRequest } from '../llm-provider';

export const good = { name: 'Blue Kettle', price: 39.9 };
const answer = JSON.stringify(good);
const pieces = answer.match(/.{1,8}/g) ?? [answer];

/** One request as the server saw it. */
export interface Seen {
  path: string;
  body: Record<string, unknown>;
}
export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  n: number,
  body: Record<string, unknown>,
) => void;

export interface ScriptedModelServer {
  url: string;
  seen: Seen[];
  handler: Handler;
}

/** Starts the server before the file's tests, empties `seen` before each, closes it after all. */
export function useScriptedModelServer(): ScriptedModelServer {
  const s: ScriptedModelServer = { url: '', seen: [], handler: (_q, res) => res.end() };
  let listening: ListeningServer | undefined;
  beforeAll(async () => {
    listening = await listenLocal(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
          s.seen.push({ path: req.url ?? '', body });
          s.handler(req, res, s.seen.length - 1, body);
        });
      }),
    );
    s.url = listening.url;
  });
  afterAll(() => listening?.close());
  beforeEach(() => {
    s.seen.length = 0;
  });
  return s;
}

export const request = (timeoutMs = 10_000): LlmRequest => ({
  system: 'Extract.',
  user: 'Blue Kettle, 39.90',
  jsonSchema: { type: 'object', properties: { name: { type: 'string' }, price: { type: 'number' } } },
  freeForm: false,
  maxTokens: 256,
  timeoutMs,
});

/** Answers `status` with `headers` and `body` written in one piece. */
export const reply =
  (contentType: string, body: string, status = 200, headers: Record<string, string> = {}) =>
  (res: ServerResponse) => {
    res.writeHead(status, { 'content-type': contentType, ...headers });
    res.end(body);
  };

const openAiChunks = [
  ...pieces.map((p) => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: p } }] })),
  {
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 7 },
  },
];
export const openAiSse = `${openAiChunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('')}data: [DONE]\n\n`;
export const openAiNdjson = `${openAiChunks.map((c) => JSON.stringify(c)).join('\n')}\n`;
export const openAiPlainDoc = {
  choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 7 },
};
const ollamaLines = [
  ...pieces.map((p) => ({ message: { role: 'assistant', content: p }, done: false })),
  { message: { role: 'assistant', content: '' }, done: true, prompt_eval_count: 5, eval_count: 7 },
];
export const ollamaNdjson = `${ollamaLines.map((l) => JSON.stringify(l)).join('\n')}\n`;
export const ollamaSse = ollamaLines.map((l) => `data: ${JSON.stringify(l)}\n\n`).join('');
export const ollamaPlainDoc = {
  message: { role: 'assistant', content: answer },
  done: true,
  prompt_eval_count: 5,
  eval_count: 7,
};

/** One call of a fresh provider, closed after. */
export async function completeWith(make: () => LlmProvider, req = request()) {
  const provider = make();
  try {
    return await provider.complete(req);
  } finally {
    await provider.close?.();
  }
}
