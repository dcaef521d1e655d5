import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/** Paths that must never reach a log line (API keys, tokens, webhook secrets). */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'authorization',
  'apiKey',
  'password',
  'secret',
  'token',
  '*.apiKey',
  '*.secret',
  '*.token',
];

/**
 * One root logger per process; bind request/job/account ids with `logger.child({...})`.
 * `destination` (default stdout) lets tests read the lines.
 */
export function createLogger(
  opts: { service: string; level?: string } & LoggerOptions,
  destination?: DestinationStream,
): Logger {
  const { service, level = 'info', ...rest } = opts;
  const options = {
    level,
    base: { service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...rest,
  };
  return destination ? pino(options, destination) : pino(options);
}
