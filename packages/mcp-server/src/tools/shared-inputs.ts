/**
 * Input fields several tools share, as zod schemas (the SDK turns them into the JSON Schema the
 * host shows the model). Ranges mirror the API's limits so mistakes fail before any credit moves.
 */
import { z } from 'zod';

export const MAX_URL_LENGTH = 8_192;

export function urlInput(description: string) {
  return z.string().trim().min(1).max(MAX_URL_LENGTH).describe(description);
}

export const onlyMainContentInput = z
  .boolean()
  .optional()
  .describe(
    'Keep only the main content: strip navigation, ads, footers, sidebars and cookie banners (default true). ' +
      'Set false to keep the whole page.',
  );

export function waitInput(statusTool: string) {
  return z
    .boolean()
    .default(true)
    .describe(
      `Wait for the job to finish and return its results (default true). false: return the job id at once; ` +
        `then poll it with ${statusTool}.`,
    );
}

export const timeoutSecondsInput = z
  .number()
  .int()
  .min(1)
  .max(3_600)
  .default(600)
  .describe(
    'How long to wait when wait is true, in seconds (default 600). Past it the job keeps running and ' +
      'the answer gives its id to poll.',
  );

export function jobIdInput(startTool: string) {
  return z.string().trim().min(1).max(100).describe(`The job id returned by ${startTool}.`);
}

export const monitorIdInput = z
  .guid({ error: 'must be a monitor id (a UUID)' })
  .describe('The monitor id (a UUID) returned by service_monitor_create or service_monitor_list.');
