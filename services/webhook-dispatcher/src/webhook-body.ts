import type { WebhookTask } from '@wcs/db';

/** Discord refuses a message longer than 2,000 characters; Slack's sections read best short too. */
const MESSAGE_CHARS = { slack: 3_000, discord: 2_000 } as const;

/**
 * The body POSTed for a change: the spec's JSON (`monitorId`, `url`, `detectedAt`, `snapshot`,
 * plus `diff` and `judgement`), or a Slack (`{ text }`) / Discord (`{ content }`) incoming-webhook
 * message, so a monitor can post straight into a channel.
 */
export function webhookBody(task: WebhookTask): string {
  if (task.webhookFormat === 'json') {
    return JSON.stringify({
      monitorId: task.monitorId,
      url: task.url,
      detectedAt: task.detectedAt.toISOString(),
      snapshot: task.snapshot,
      // Changes recorded before diffs were kept have none.
      ...(task.diff
        ? { diff: { added: task.diff.added, removed: task.diff.removed, text: task.diff.text } }
        : {}),
      ...(task.judgement ? { judgement: task.judgement } : {}),
    });
  }
  const text = chatMessage(task, MESSAGE_CHARS[task.webhookFormat]);
  return JSON.stringify(task.webhookFormat === 'slack' ? { text } : { content: text });
}

function chatMessage(task: WebhookTask, max: number): string {
  const head = [
    `Change detected on ${task.url} at ${task.detectedAt.toISOString()}`,
    ...(task.judgement ? [`Relevant to the goal: ${task.judgement.reason}`] : []),
  ].join('\n');
  const lines = task.diff
    ? [...task.diff.removed.map((l) => `- ${l}`), ...task.diff.added.map((l) => `+ ${l}`)]
    : task.snapshot.split('\n');
  // Whole lines, within the platform's limit (the fence and the head included).
  let room = max - head.length - 16;
  const kept: string[] = [];
  for (const l of lines) {
    if (l.length + 1 > room) break;
    kept.push(l);
    room -= l.length + 1;
  }
  const cut = kept.length < lines.length ? '\n…' : '';
  return kept.length > 0 ? `${head}\n\`\`\`\n${kept.join('\n')}${cut}\n\`\`\`` : head;
}
