import { request } from '../api-client';
import { ScrollTable } from '../components/scroll-table';
import { ErrorLine } from '../components/status-line';
import { formatNumber, formatTime } from '../format';
import { href } from '../router';
import type { MonitorSummary, Page } from '../types';
import { useLoad } from '../use-load';

const loadMonitors = () => request<Page<MonitorSummary>>('/v1/monitor?limit=500');

export function statusText(monitor: Pick<MonitorSummary, 'status' | 'pausedBy'>): string {
  if (monitor.status !== 'paused') return monitor.status;
  if (monitor.pausedBy === 'credits') return 'paused (out of credits)';
  if (monitor.pausedBy === 'user') return 'paused (by you)';
  return 'paused';
}

export function MonitorsView() {
  const { data, error, loading } = useLoad(loadMonitors, 'monitors');
  const rows = data?.data ?? [];
  return (
    <>
      <h1>Monitors</h1>
      <ErrorLine message={error} />
      <p role="status">
        {data
          ? `${formatNumber(data.total)} monitor${data.total === 1 ? '' : 's'}`
          : loading
            ? 'Loading…'
            : ''}
      </p>
      <ScrollTable label="Monitors">
        <table data-testid="monitors-table">
          <caption>Watched pages, newest first</caption>
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Interval</th>
              <th scope="col">Status</th>
              <th scope="col">Last check</th>
              <th scope="col">Next check</th>
              <th scope="col">Details</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((m) => (
              <tr key={m.id} data-monitor-id={m.id}>
                <td class="wrap">{m.url}</td>
                <td>{m.cron ? `cron ${m.cron} (${m.timezone ?? 'UTC'})` : m.interval}</td>
                <td>{statusText(m)}</td>
                <td>{formatTime(m.lastCheckAt)}</td>
                <td>{formatTime(m.nextCheckAt)}</td>
                <td>
                  <a href={href('monitors', m.id)}>Details</a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      {data && data.total > rows.length ? (
        <p class="muted">Showing the newest {rows.length}; the API lists them all with skip/limit.</p>
      ) : null}
    </>
  );
}
