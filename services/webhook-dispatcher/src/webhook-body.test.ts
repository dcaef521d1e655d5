import type { WebhookTask } from '@wcs/db';
import { webhookBody } from './webhook-body';

const task = (over: Partial<WebhookTask> = {}): WebhookTask => ({
  changeId: 'c1',
  monitorId: 'm1',
  accountId: 'a1',
  url: 'https://example.com/pricing',
  webhookUrl: 'https://hooks.example/x',
  webhookFormat: 'json',
  detectedAt: new Date('2026-11-22T04:10:02.123Z'),
  snapshot: 'Prices',
  diff: {
    added: ['Price: $12'],
    removed: ['Price: $10'],
    text: '--- previous\n+++ current\n',
    truncated: false,
  },
  judgement: null,
  alreadyAttempted: false,
  ...over,
});

describe('webhookBody (json)', () => {
  test('the spec four fields first, then diff (without truncated); judgement only with a goal', () => {
    const body = JSON.parse(webhookBody(task())) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['monitorId', 'url', 'detectedAt', 'snapshot', 'diff']);
    expect(body).toEqual({
      monitorId: 'm1',
      url: 'https://example.com/pricing',
      detectedAt: '2026-11-22T04:10:02.123Z',
      snapshot: 'Prices',
      diff: { added: ['Price: $12'], removed: ['Price: $10'], text: '--- previous\n+++ current\n' },
    });
    const judgement = { relevant: true, reason: 'The price changed.' };
    expect(JSON.parse(webhookBody(task({ judgement })))).toMatchObject({ judgement });
  });

  test('a change recorded before diffs were kept has no diff', () => {
    expect(Object.keys(JSON.parse(webhookBody(task({ diff: null }))))).toEqual([
      'monitorId',
      'url',
      'detectedAt',
      'snapshot',
    ]);
  });
});
