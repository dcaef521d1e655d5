import { request } from '../api-client';
import { NumCell } from '../components/num-cell';
import { ScrollTable } from '../components/scroll-table';
import { ErrorLine } from '../components/status-line';
import { UrlText } from '../components/url-text';
import { formatNumber, formatTime } from '../format';
import { batchFinished, crawlFinished, POLL_MS } from '../job-status';
import { href } from '../router';
import type { BatchSummary, CrawlSummary, Page } from '../types';
import { useInterval, useLoad } from '../use-load';

const LIST_LIMIT = 50;

/** The newest LIST_LIMIT jobs are shown; the caption says when there are more (the API pages them). */
function listCaption(page: Page<unknown> | undefined): string {
  const total = page?.total ?? 0;
  return total > LIST_LIMIT
    ? `Newest ${LIST_LIMIT} of ${formatNumber(total)}`
    : `Newest first (${formatNumber(total)} in all)`;
}

async function loadJobs(): Promise<{ batches: Page<BatchSummary>; crawls: Page<CrawlSummary> }> {
  const [batches, crawls] = await Promise.all([
    request<Page<BatchSummary>>(`/v1/batch/scrape?limit=${LIST_LIMIT}`),
    request<Page<CrawlSummary>>(`/v1/crawl?limit=${LIST_LIMIT}`),
  ]);
  return { batches, crawls };
}

export function JobsView() {
  const { data, error, reload } = useLoad(loadJobs, 'jobs');
  const running =
    !!data &&
    (data.batches.data.some((b) => !batchFinished(b.status)) ||
      data.crawls.data.some((c) => !crawlFinished(c.status)));
  // Poll only while something runs; the interval is cleared on unmount.
  useInterval(reload, POLL_MS, running);

  return (
    <>
      <h1>Jobs</h1>
      <ErrorLine message={error} />
      <p role="status">
        {data ? (running ? 'Refreshing every 2 s while jobs run' : 'All jobs finished') : ''}
      </p>
      <h2>Batch scrapes</h2>
      <ScrollTable label="Batch scrapes">
        <table data-testid="batches-table">
          <caption>{listCaption(data?.batches)}</caption>
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col">Status</th>
              <th scope="col">Completed</th>
              <th scope="col">Failed</th>
              <th scope="col">Total</th>
              <th scope="col">Credits</th>
              <th scope="col">Created</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {(data?.batches.data ?? []).map((b) => (
              <tr key={b.id} data-batch-id={b.id}>
                <td class="mono">{b.id.slice(0, 8)}</td>
                <td>{b.status}</td>
                <NumCell value={b.completed} />
                <NumCell value={b.failed} />
                <NumCell value={b.total} />
                <td class="num">{formatNumber(b.creditsUsed)}</td>
                <td>{formatTime(b.createdAt)}</td>
                <td>
                  <a href={href('jobs', 'batch', b.id)}>Details</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <h2>Crawls</h2>
      <ScrollTable label="Crawls">
        <table data-testid="crawls-table">
          <caption>{listCaption(data?.crawls)}</caption>
          <thead>
            <tr>
              <th scope="col">Start URL</th>
              <th scope="col">Status</th>
              <th scope="col">Completed</th>
              <th scope="col">Failed</th>
              <th scope="col">Discovered</th>
              <th scope="col">Credits</th>
              <th scope="col">Created</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {(data?.crawls.data ?? []).map((c) => (
              <tr key={c.id} data-crawl-id={c.id}>
                <td class="wrap">
                  <UrlText url={c.url} />
                </td>
                <td>
                  {c.status}
                  {c.stopReason ? ` (${c.stopReason})` : ''}
                </td>
                <NumCell value={c.completed} />
                <NumCell value={c.failed} />
                <NumCell value={c.discovered} />
                <td class="num">{formatNumber(c.creditsUsed)}</td>
                <td>{formatTime(c.createdAt)}</td>
                <td>
                  <a href={href('jobs', 'crawl', c.id)}>Details</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
    </>
  );
}
