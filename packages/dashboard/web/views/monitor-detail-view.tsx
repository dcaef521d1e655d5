import { useState } from 'preact/hooks';
import { errorMessage, getData, sendData } from '../api-client';
import { ConfirmDialog } from '../components/confirm-dialog';
import { NumCell } from '../components/num-cell';
import { ScrollTable } from '../components/scroll-table';
import { ErrorLine, StatusLine } from '../components/status-line';
import { TextDiff } from '../components/text-diff';
import { UrlText } from '../components/url-text';
import { formatNumber, formatTime } from '../format';
import type { MonitorChange, MonitorDetail, WebhookDelivery } from '../types';
import { useLoad } from '../use-load';

/** How each webhook body reads (the API leaves `webhookFormat` out for the default, json). */
const WEBHOOK_FORMATS: Record<NonNullable<MonitorDetail['webhookFormat']>, string> = {
  json: 'JSON (monitorId, url, detectedAt, snapshot, diff)',
  slack: 'Slack message',
  discord: 'Discord message',
};

export function MonitorDetailView({ id }: { id: string }) {
  const path = `/v1/monitor/${encodeURIComponent(id)}`;
  const monitor = useLoad(() => getData<MonitorDetail>(path), path);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const act = async (method: string, suffix: string, done: string) => {
    setBusy(true);
    setError(null);
    try {
      await sendData(method, `${path}${suffix}`);
      setStatus(done);
      monitor.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const m = monitor.data;
  return (
    <>
      <h1>Monitor</h1>
      <ErrorLine message={error ?? monitor.error} />
      <StatusLine message={status} />
      {m ? (
        <>
          <dl class="facts">
            <dt>URL</dt>
            <dd class="wrap">
              <UrlText url={m.url} />
            </dd>
            <dt>Status</dt>
            <dd>
              <span data-testid="monitor-status">{m.status}</span>
              {m.status === 'paused' && m.pausedBy ? (
                <span class="muted"> ({m.pausedBy === 'credits' ? 'out of credits' : 'by you'})</span>
              ) : null}
            </dd>
            <dt>Schedule</dt>
            <dd data-testid="monitor-schedule">
              {m.cron ? (
                <>
                  cron <code>{m.cron}</code> in {m.timezone ?? 'UTC'}
                </>
              ) : (
                m.interval
              )}
            </dd>
            <dt>Checks</dt>
            <dd>{formatNumber(m.checkCount)}</dd>
            <dt>Last check</dt>
            <dd>{formatTime(m.lastCheckAt)}</dd>
            <dt>Next check</dt>
            <dd>{formatTime(m.nextCheckAt)}</dd>
            <dt>Webhook</dt>
            <dd class="wrap">{m.webhookUrl ?? '—'}</dd>
            <dt>Webhook format</dt>
            <dd data-testid="monitor-webhook-format">{WEBHOOK_FORMATS[m.webhookFormat ?? 'json']}</dd>
            <dt>Ignored lines</dt>
            <dd class="wrap" data-testid="monitor-ignore">
              {m.ignoreText?.length ? m.ignoreText.join(' · ') : '—'}
            </dd>
            <dt>Threshold</dt>
            <dd data-testid="monitor-threshold">
              {m.threshold ? `${Math.round(m.threshold * 1000) / 10} % of words` : 'any change'}
            </dd>
            <dt>Goal</dt>
            <dd class="wrap" data-testid="monitor-goal">
              {m.goal ?? '—'}
            </dd>
          </dl>
          <div class="toolbar">
            {m.status === 'active' ? (
              <button type="button" disabled={busy} onClick={() => act('POST', '/pause', 'Monitor paused')}>
                Pause
              </button>
            ) : null}
            {m.status === 'paused' ? (
              // A monitor paused for lack of credits resumes by itself when credits arrive (409 here).
              <button
                type="button"
                disabled={busy || m.pausedBy === 'credits'}
                aria-describedby={m.pausedBy === 'credits' ? 'resume-note' : undefined}
                onClick={() => act('POST', '/resume', 'Monitor resumed')}
              >
                Resume
              </button>
            ) : null}
            {m.status !== 'cancelled' ? (
              <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)}>
                Cancel monitor
              </button>
            ) : null}
          </div>
          {m.status === 'paused' && m.pausedBy === 'credits' ? (
            <p id="resume-note">
              Paused because the balance reached 0: it resumes by itself within seconds of credits arriving.
            </p>
          ) : null}
          <h2>Changes</h2>
          <Changes changes={m.changes} />
          <JudgedIrrelevant checks={m.checks} />
          <h2>Webhook deliveries</h2>
          <Deliveries deliveries={m.webhookDeliveries} />
          <WebhookSecret />
        </>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Cancel this monitor?"
          confirmLabel="Cancel monitor"
          cancelLabel="Keep"
          busy={busy}
          onConfirm={() => act('DELETE', '', 'Monitor cancelled')}
          onCancel={() => setConfirming(false)}
        >
          <p>Checks stop for good; the history stays readable.</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/**
 * Newest first. Each change is diffed against the page as it was before it: `previousSnapshot` when
 * the API has it (the first change too), else the next older change's snapshot.
 */
function Changes({ changes }: { changes: MonitorChange[] }) {
  if (changes.length === 0) return <p>No change detected yet (the first check sets the baseline).</p>;
  return (
    <ol class="changes" data-testid="changes">
      {changes.map((change, i) => {
        const before = change.previousSnapshot ?? changes[i + 1]?.snapshot ?? null;
        return (
          <li key={change.id} data-change-id={change.id}>
            <h3>{formatTime(change.detectedAt)}</h3>
            <p class="muted">Snapshot (first 500 characters of the page's markdown)</p>
            <pre class="snapshot">{change.snapshot}</pre>
            <p class="muted">
              {before === null
                ? 'Nothing earlier to compare with: all new'
                : 'Changes against the page before'}
            </p>
            <TextDiff before={before ?? ''} after={change.snapshot} />
            {change.judgement ? (
              <p data-testid="change-judgement">
                Judged relevant to the goal: {change.judgement.reason || '(no reason given)'}
              </p>
            ) : null}
            {change.diff ? <LineDiff diff={change.diff} /> : null}
          </li>
        );
      })}
    </ol>
  );
}

/** The lines the checker saw change (cleaned markdown, ignored lines left out). */
function LineDiff({ diff }: { diff: NonNullable<MonitorChange['diff']> }) {
  return (
    <details data-testid="change-lines">
      <summary>
        Lines: {formatNumber(diff.added.length)} added, {formatNumber(diff.removed.length)} removed
        {diff.truncated ? ' (cut to the first ones)' : ''}
      </summary>
      <pre class="diff">
        {diff.removed.map((l, i) => (
          <del key={`d${i}`}>{`- ${l}\n`}</del>
        ))}
        {diff.added.map((l, i) => (
          <ins key={`a${i}`}>{`+ ${l}\n`}</ins>
        ))}
      </pre>
    </details>
  );
}

/** Recent checks whose change the goal's judge found irrelevant: not changes, but visible. */
function JudgedIrrelevant({ checks }: { checks: MonitorDetail['checks'] }) {
  const judged = checks.filter((c) => c.judgement && !c.judgement.relevant);
  if (judged.length === 0) return null;
  return (
    <>
      <h2>Changes judged irrelevant to the goal</h2>
      <ul data-testid="judged-irrelevant">
        {judged.map((c) => (
          <li key={c.checkedAt}>
            {formatTime(c.checkedAt)}: {c.judgement?.reason || '(no reason given)'}
          </li>
        ))}
      </ul>
    </>
  );
}

function Deliveries({ deliveries }: { deliveries: WebhookDelivery[] }) {
  return (
    <ScrollTable label="Webhook deliveries">
      <table data-testid="deliveries-table">
        <caption>One attempt per change, newest first (no retries)</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Status code</th>
            <th scope="col">Duration (ms)</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {deliveries.map((d) => (
            <tr key={d.changeId}>
              <td>{formatTime(d.attemptedAt)}</td>
              <td class="num">{d.statusCode ?? '—'}</td>
              <NumCell value={d.durationMs} />
              <td class="wrap">{d.error ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollTable>
  );
}

function WebhookSecret() {
  const [secret, setSecret] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const show = async () => {
    try {
      setSecret((await getData<{ secret: string }>('/v1/webhook/secret')).secret);
    } catch (err) {
      setError(errorMessage(err));
    }
  };
  return (
    <section aria-labelledby="secret-title">
      <h2 id="secret-title">Signing secret</h2>
      <p>Webhooks carry X-Signature: sha256=HMAC-SHA256 of the raw body with this secret.</p>
      {secret ? (
        <code data-testid="webhook-secret">{secret}</code>
      ) : (
        <button type="button" onClick={show}>
          Show signing secret
        </button>
      )}
      <ErrorLine message={error} />
    </section>
  );
}
