import { useState } from 'preact/hooks';
import { errorMessage, request } from '../api-client';
import { ConfirmDialog } from '../components/confirm-dialog';
import { JobResults, type ResultRow } from '../components/job-results';
import { Stat } from '../components/stat';
import { ErrorLine, StatusLine } from '../components/status-line';
import { UrlText } from '../components/url-text';
import { formatNumber } from '../format';
import { crawlFinished, POLL_MS } from '../job-status';
import type { CrawlResultRow, CrawlStatus } from '../types';
import { useInterval, useLoad } from '../use-load';

const toRow = (r: CrawlResultRow): ResultRow => ({
  id: r.pageId,
  url: r.url,
  status: r.statusCode == null ? r.status : `${r.status} (HTTP ${r.statusCode})`,
  detail: `${r.title ?? '—'} · depth ${r.depth}`,
  error: r.error,
});

export function CrawlDetailView({ id }: { id: string }) {
  const path = `/v1/crawl/${encodeURIComponent(id)}`;
  // limit=1: only the status and counts are wanted here; pages come from /results.
  const crawl = useLoad(() => request<CrawlStatus>(`${path}?limit=1`), path);
  const running = !!crawl.data && !crawlFinished(crawl.data.status);
  useInterval(crawl.reload, POLL_MS, running);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const cancel = async () => {
    setBusy(true);
    try {
      await request(path, { method: 'DELETE' });
      setStatus('Crawl cancelled');
      crawl.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  const c = crawl.data;
  return (
    <>
      <h1>Crawl</h1>
      <ErrorLine message={error ?? crawl.error} />
      <StatusLine message={status} />
      {c ? (
        <>
          <p class="wrap">
            Start URL: <UrlText url={c.url} />
          </p>
          <dl class="stats">
            <Stat label="Status" testId="crawl-status" value={c.status} text={c.status} />
            <Stat
              label="Completed"
              testId="crawl-completed"
              value={c.completed}
              text={formatNumber(c.completed)}
            />
            <Stat label="Failed" testId="crawl-failed" value={c.failed} text={formatNumber(c.failed)} />
            <Stat label="Discovered" testId="crawl-discovered" value={c.total} text={formatNumber(c.total)} />
          </dl>
          {c.stopReason ? <p>Stopped: {c.stopReason}</p> : null}
          {c.error ? <p class="wrap">Error: {c.error}</p> : null}
          <label for="crawl-progress">Progress</label>{' '}
          <progress id="crawl-progress" max={Math.max(1, c.total)} value={c.completed + c.failed} />
          {!crawlFinished(c.status) ? (
            <p>
              <button type="button" class="danger" disabled={busy} onClick={() => setConfirming(true)}>
                Cancel crawl
              </button>
            </p>
          ) : null}
          <JobResults
            kind="crawl"
            jobId={id}
            path={`${path}/results`}
            toRow={toRow}
            detailLabel="Title"
            polling={running}
          />
        </>
      ) : null}
      {confirming ? (
        <ConfirmDialog
          title="Cancel this crawl?"
          confirmLabel="Cancel crawl"
          cancelLabel="Keep"
          busy={busy}
          onConfirm={cancel}
          onCancel={() => setConfirming(false)}
        >
          <p>No new page starts; pages already crawled are kept (and were billed).</p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
