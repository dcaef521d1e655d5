import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api-client';
import { formatNumber } from '../format';
import { href } from '../router';
import type { Page } from '../types';
import { useInterval, useLoad } from '../use-load';
import { ScrollTable } from './scroll-table';
import { ErrorLine } from './status-line';

const PAGE_SIZE = 50;

export interface ResultRow {
  id: string;
  url: string;
  status: string;
  detail: string;
  error: string | null;
}

interface Props<T> {
  kind: 'batch' | 'crawl';
  jobId: string;
  /** `/v1/…/results` without the query. */
  path: string;
  toRow: (item: T) => ResultRow;
  detailLabel: string;
  /** Poll while the job runs (results change under us). */
  polling: boolean;
}

/** The per-item results of a batch or crawl, 50 per page, each with a link to its document. */
export function JobResults<T>({ kind, jobId, path, toRow, detailLabel, polling }: Props<T>) {
  const [skip, setSkip] = useState(0);
  const url = `${path}?skip=${skip}&limit=${PAGE_SIZE}`;
  const { data, error, reload } = useLoad(() => request<Page<T>>(url), url);
  useInterval(reload, 2000, polling);
  // The job's status may finish between two polls: read the results once more when polling stops.
  const wasPolling = useRef(polling);
  useEffect(() => {
    if (wasPolling.current && !polling) reload();
    wasPolling.current = polling;
  }, [polling, reload]);
  const total = data?.total ?? 0;
  const rows = (data?.data ?? []).map(toRow);
  return (
    <>
      <h2>Results</h2>
      <ErrorLine message={error} />
      <ScrollTable label="Results">
        <table data-testid="results-table">
          <caption>
            {total === 0
              ? 'No results yet'
              : `Items ${formatNumber(skip + 1)}–${formatNumber(Math.min(skip + PAGE_SIZE, total))} of ${formatNumber(total)}`}
          </caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Status</th>
              <th scope="col">{detailLabel}</th>
              <th scope="col">Error</th>
              <th scope="col">Document</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} data-item-id={row.id}>
                <td class="wrap">{row.url}</td>
                <td>{row.status}</td>
                <td class="wrap">{row.detail}</td>
                <td class="wrap">{row.error ?? '—'}</td>
                <td>
                  <a href={href('documents', kind, jobId, row.id)}>Open</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <div class="pager">
        <button type="button" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - PAGE_SIZE))}>
          Previous page
        </button>
        <button type="button" disabled={!data?.next} onClick={() => setSkip(skip + PAGE_SIZE)}>
          Next page
        </button>
      </div>
    </>
  );
}
