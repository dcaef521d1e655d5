/**
 * What crawl and batch tools share about jobs: progress notifications while waiting, and the
 * answers given when the tool does not wait (wait: false) or stops waiting (timeoutSeconds).
 */
import { type Progress, ServiceError } from '@wcs/client-node';
import type { ToolExtra } from './tool-context.js';

export type StatusTool = 'service_crawl_status' | 'service_batch_status';

const TERMINAL: Record<StatusTool, string> = {
  service_crawl_status: '"done" or "failed"',
  service_batch_status: '"done"',
};

/** How the model is told to follow a job it did not wait for. */
export function pollHint(statusTool: StatusTool, id: string): string {
  return `Poll with ${statusTool} { "id": "${id}" } until status is ${TERMINAL[statusTool]}.`;
}

/**
 * When waiting ran out of time (the client's CLIENT_TIMEOUT with the job's progress in
 * `details`), the job still runs: that is an answer, not an error. Anything else: undefined.
 */
export function stillRunningAnswer(
  err: unknown,
  statusTool: StatusTool,
): Record<string, unknown> | undefined {
  if (!(err instanceof ServiceError) || err.code !== 'CLIENT_TIMEOUT') return undefined;
  const d = err.details;
  if (!d || typeof d.id !== 'string') return undefined;
  return {
    id: d.id,
    status: d.status,
    total: d.total,
    completed: d.completed,
    failed: d.failed,
    stillRunning: true,
    nextStep: `Not finished within timeoutSeconds; the job keeps running. ${pollHint(statusTool, d.id)}`,
  };
}

/**
 * Turns the client's poll callbacks into MCP `notifications/progress` while a crawl or batch is
 * waited for — only when the host asked for progress (sent a progressToken with the call).
 */
export function progressNotifier(
  extra: ToolExtra,
  kind: 'crawl' | 'batch',
): ((p: Progress) => void) | undefined {
  const progressToken = extra._meta?.progressToken;
  if (progressToken === undefined) return undefined;
  let lastSent = -1;
  return (p) => {
    const progress = p.completed + p.failed;
    // MCP requires progress to increase with every notification.
    if (progress <= lastSent) return;
    lastSent = progress;
    const unit = kind === 'crawl' ? 'pages' : 'URLs';
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: {
          progressToken,
          progress,
          ...(p.total > 0 ? { total: p.total } : {}),
          message: `${kind} ${p.id} ${p.status}: ${progress} of ${p.total} ${unit} finished`,
        },
      })
      .catch(() => {
        // The host went away or does not care; waiting goes on either way.
      });
  };
}
