import type { Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { RequestTimeoutError, type ServiceError, ValidationError } from '@wcs/errors';

/**
 * Requests Node's HTTP parser rejects before Express sees them (malformed framing, headers too large,
 * a body that never arrives within REQUEST_TIMEOUT_MS) get the same JSON error shape as every other
 * answer instead of Node's bare status line; then the socket is closed.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    const se = classify(err);
    const body = JSON.stringify({ success: false, error: se.message, code: se.code });
    // Headers were parsed (a handler is waiting for the body): answer through its response.
    const pending = (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage;
    if (pending) {
      if (pending.headersSent || !socket.writable) return void socket.destroy();
      pending.shouldKeepAlive = false;
      pending.writeHead(se.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        connection: 'close',
      });
      pending.end(body, () => socket.destroy());
      return;
    }
    if (!socket.writable) return void socket.destroy();
    socket.end(
      `HTTP/1.1 ${se.status} ${reasons[se.status] ?? 'Bad Request'}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
  });
}

const reasons: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout' };

function classify(err: NodeJS.ErrnoException): ServiceError {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return new RequestTimeoutError();
  if (err.code === 'HPE_HEADER_OVERFLOW') return new ValidationError('Request headers are too large');
  return new ValidationError('Malformed HTTP request');
}
