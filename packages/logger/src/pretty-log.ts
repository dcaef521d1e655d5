import type { DestinationStream } from 'pino';
import type { PrettyOptions } from 'pino-pretty';

/** How a person reads our lines in a terminal: time, level, message, then the bound fields. */
const PRETTY: PrettyOptions = {
  colorize: true,
  translateTime: 'SYS:HH:MM:ss.l',
  ignore: 'pid,hostname,service',
  singleLine: true,
};

// pino-pretty is loaded on first use: services logging JSON (every deployment) never pay for it.
function prettyModule(): typeof import('pino-pretty') {
  return require('pino-pretty') as typeof import('pino-pretty');
}

let format: ((line: Record<string, unknown>) => string) | undefined;

/**
 * One JSON log line as pino-pretty prints it; a line that is not one of our JSON lines (a crash's
 * stderr, a child tool's output) comes back unchanged. Used by the local supervisor on a TTY.
 */
export function prettyLogLine(line: string): string {
  if (!line.startsWith('{')) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof parsed !== 'object' || parsed === null || !('level' in parsed)) return line;
  format ??= prettyModule().prettyFactory(PRETTY) as (line: Record<string, unknown>) => string;
  return format(parsed as Record<string, unknown>).replace(/\n$/, '');
}

/** A synchronous pretty stream to stdout, for a service started by hand in a terminal. */
export function prettyDestination(): DestinationStream {
  return prettyModule()({ ...PRETTY, sync: true });
}
