import { request } from '../api-client';
import { JobResults, type ResultRow } from '../components/job-results';
import { Stat } from '../components/stat';
import { ErrorLine } from '../components/status-line';
import { formatNumber } from '../format';
import { batchFinished, POLL_MS } from '../job-status';
import type { BatchResultRow, BatchStatus } from '../types';
import { useInterval, useLoad } from '../use-load';

const toRow = (r: BatchResultRow): ResultRow => ({
  id: r.itemId,
  url: r.url,
  status: r.status,
  detail: `${r.position} · ${r.title ?? '—'}`,
  error: r.error,
});

export function BatchDetailView({ id }: { id: string }) {
  const path = `/v1/batch/scrape/${encodeURIComponent(id)}`;
  // limit=1: only the status and counts are wanted here; items come from /results.
  const batch = useLoad(() => request<BatchStatus>(`${path}?limit=1`), path);
  const running = !!batch.data && !batchFinished(batch.data.status);
  useInterval(batch.reload, POLL_MS, running);
  const b = batch.data;
  return (
    <>
      <h1>Batch scrape</h1>
      <ErrorLine message={batch.error} />
      {b ? (
        <>
          <dl class="stats">
            <Stat label="Status" testId="batch-status" value={b.status} text={b.status} />
            <Stat
              label="Completed"
              testId="batch-completed"
              value={b.completed}
              text={formatNumber(b.completed)}
            />
            <Stat label="Failed" testId="batch-failed" value={b.failed} text={formatNumber(b.failed)} />
            <Stat label="URLs" testId="batch-total" value={b.total} text={formatNumber(b.total)} />
            <Stat
              label="Credits used"
              testId="batch-credits"
              value={b.creditsUsed}
              text={formatNumber(b.creditsUsed)}
            />
          </dl>
          <label for="batch-progress">Progress</label>{' '}
          <progress id="batch-progress" max={Math.max(1, b.total)} value={b.completed + b.failed} />
          <JobResults
            kind="batch"
            jobId={id}
            path={`${path}/results`}
            toRow={toRow}
            detailLabel="Position · title"
            polling={running}
          />
        </>
      ) : null}
    </>
  );
}
