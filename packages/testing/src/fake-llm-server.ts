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
    const answer = () => {
      const out = render(reply, recorded);
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
