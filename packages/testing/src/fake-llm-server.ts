/**
 * The shared core of the fake model servers (fake-anthropic.ts, fake-openai.ts): a node:http
 * server on 127.0.0.1 that records every request (headers + parsed JSON body) and answers from a
 * per-test script, so tests run the real SDK / HTTP client against it and can assert what the
 * model was shown.
 */

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenLocal } from './local-server';

/** What the fake model answers to one call. */
export interface FakeLlmReply {
  /** The structured answer (tool_use input / JSON message content). */
  data?: unknown;
  /** Raw text instead of structured data (prose, broken JSON). */
  text?: string;
  /** Answer with this HTTP error status (and an error body in the API's format). */
  status?: number;
  /** Answer this late (ms): for timeouts. */
  delayMs?: number;
  usage?: { input: number; output: number };
  /** Answer exactly this JSON body (status `status` or 200): a server's odd shapes. */
  body?: unknown;
  /** Asked to stream: answer one JSON document anyway (a server or proxy that ignores `stream`). */
  noStream?: boolean;
  /** Streaming: headers (and any preamble event) at once, the first token this late (ms). */
  firstTokenDelayMs?: number;
  /** Streaming: this long between pieces of the answer (ms). */
  pieceDelayMs?: number;
  /** Streaming: send this many pieces, then nothing more, the connection left open. */
  stallAfterPieces?: number;
}

/**
 * A streamed answer in a server's wire format: `head` is written with the headers (events that
 * carry no token: a role chunk, `message_start`), then each of `pieces` (each carries part of the
 * answer), then `tail` (finish reason, usage, `[DONE]`).
 */
export interface StreamPlan {
  contentType: string;
  head: string[];
  pieces: string[];
  tail: string[];
}

/** The answer's text in pieces of a few characters, as a model streams it. */
export function answerPieces(text: string, size = 12): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [''];
}

export interface RecordedLlmRequest {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
}

/** Reply for the n-th call (0-based, counted since the last `script()`). */
export type FakeLlmScript = (req: RecordedLlmRequest, n: number) => FakeLlmReply;

export interface FakeLlmServer {
  /** Base URL (no trailing slash). */
  url: string;
  requests: RecordedLlmRequest[];
  /** Replace the script and reset the call counter (tests share one server). */
  script(s: FakeLlmScript): void;
  close(): Promise<void>;
}

export async function startFakeLlmServer(
  paths: string[],
  render: (reply: FakeLlmReply, req: RecordedLlmRequest) => { status: number; body: unknown },
  initial: FakeLlmScript,
  /** The streamed form of a reply, used when the request asks for `stream` (null: answer JSON). */
  renderStream?: (reply: FakeLlmReply, req: RecordedLlmRequest) => StreamPlan | null,
): Promise<FakeLlmServer> {
  let script = initial;
  let n = 0;
  const requests: RecordedLlmRequest[] = [];
  const timers = new Set<NodeJS.Timeout>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    if (req.method !== 'POST' || !paths.includes(path)) return send(res, 404, { error: 'not found' });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    } catch {
      return send(res, 400, { error: 'invalid json' });
    }
    const recorded: RecordedLlmRequest = { path, headers: req.headers, body };
    requests.push(recorded);
    const reply = script(recorded, n++);
    const later = (ms: number, f: () => void) => {
      const t = setTimeout(() => {
        timers.delete(t);
        f();
      }, ms);
      timers.add(t);
    };
    const stream = (plan: StreamPlan) => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': plan.contentType, 'cache-control': 'no-cache' });
      for (const h of plan.head) res.write(h);
      const pieces = plan.pieces.slice(0, reply.stallAfterPieces ?? plan.pieces.length);
      const next = (i: number) => {
        if (res.destroyed) return;
        if (i < pieces.length) {
          res.write(pieces[i]);
          later(reply.pieceDelayMs ?? 0, () => next(i + 1));
          return;
        }
        if (reply.stallAfterPieces !== undefined) return; // stalled: the connection stays open
        for (const t of plan.tail) res.write(t);
        res.end();
      };
      later(reply.firstTokenDelayMs ?? 0, () => next(0));
    };
    const answer = () => {
      const plan =
        reply.body === undefined &&
        !reply.noStream &&
        wantsStream(body) &&
        !(reply.status && reply.status >= 400)
          ? renderStream?.(reply, recorded)
          : null;
      if (plan) return stream(plan);
      const out =
        reply.body !== undefined
          ? { status: reply.status ?? 200, body: reply.body }
          : render(reply, recorded);
      if (!res.destroyed) send(res, out.status, out.body);
    };
    if (reply.delayMs) {
      const t = setTimeout(() => {
        timers.delete(t);
        answer();
      }, reply.delayMs);
      timers.add(t);
    } else answer();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { error: 'fake server failure' }));
  });
  const listening = await listenLocal(server, timers);
  return {
    url: listening.url,
    requests,
    script(s) {
      script = s;
      n = 0;
    },
    close: listening.close,
  };
}

/** Whether the request asks for a stream (Ollama streams unless told `stream: false`). */
function wantsStream(body: Record<string, unknown>): boolean {
  return body.stream === true;
}

/** Every string in a request body, joined: what the model was shown (system, messages, tools). */
export function textSeenByModel(req: RecordedLlmRequest): string {
  const out: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  walk(req.body.system);
  walk(req.body.messages);
  return out.join('\n');
}
