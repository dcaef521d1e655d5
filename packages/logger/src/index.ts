import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { prettyDestination } from './pretty-log';

export { prettyLogLine } from './pretty-log';

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

/** LOG_FORMAT: `auto` pretty-prints when stdout is a terminal, JSON lines otherwise. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/**
 * One root logger per process; bind request/job/account ids with `logger.child({...})`.
 * `destination` (default stdout) lets tests read the lines; `format` applies to stdout only.
 */
export function createLogger(
  opts: { service: string; level?: string; format?: LogFormat } & LoggerOptions,
  destination?: DestinationStream,
): Logger {
  const { service, level = 'info', format = 'json', ...rest } = opts;
  const options = {
    level,
    base: { service },
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    ...rest,
  };
  if (destination) return pino(options, destination);
  const pretty = format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);
  return pretty ? pino(options, prettyDestination()) : pino(options);
}
