import { useState } from 'preact/hooks';
import { request } from '../api-client';
import { NumCell } from '../components/num-cell';
import { ScrollTable } from '../components/scroll-table';
import { ErrorLine } from '../components/status-line';
import { formatAmount, formatNumber, formatTime } from '../format';
import { LEDGER_REASONS } from '../ledger-reasons';
import type { LedgerRow, Page } from '../types';
import { useLoad } from '../use-load';

const PAGE_SIZE = 50;

function ledgerPath(reason: string, cursor: string | null): string {
  const params = new URLSearchParams({ limit: String(PAGE_SIZE) });
  if (cursor) params.set('cursor', cursor);
  if (reason) params.set('reason', reason);
  return `/v1/ledger?${params}`;
}

/** The cursor of the page after this one, read from `next` (`/v1/ledger?cursor=…&limit=…`). */
function cursorOf(next: string | undefined): string | null {
  if (!next) return null;
  return new URL(next, location.origin).searchParams.get('cursor');
}

/**
 * Cursor paging, newest first. The API only links forward ("Older"), so the cursors of the pages
 * we came through are kept on a stack for "Newer" (null = the first page).
 */
export function LedgerView() {
  const [reason, setReason] = useState('');
  const [stack, setStack] = useState<Array<string | null>>([null]);
  const cursor = stack[stack.length - 1] ?? null;
  const path = ledgerPath(reason, cursor);
  const { data, error, loading } = useLoad(() => request<Page<LedgerRow>>(path), path);
  const older = cursorOf(data?.next);
  const csv = reason ? `/v1/ledger.csv?${new URLSearchParams({ reason })}` : '/v1/ledger.csv';

  return (
    <>
      <h1>Ledger</h1>
      <div class="toolbar">
        <label for="ledger-reason">Reason</label>
        <select
          id="ledger-reason"
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setStack([null]);
          }}
        >
          <option value="">All reasons</option>
          {LEDGER_REASONS.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <a class="button-link" href={csv} download>
          Export CSV
        </a>
      </div>
      <ErrorLine message={error} />
      <p role="status">
        {data ? (
          <>
            <span data-testid="ledger-total" data-value={data.total}>
              {formatNumber(data.total)}
            </span>{' '}
            {data.total === 1 ? 'entry' : 'entries'}
            {reason ? ` with reason ${reason}` : ''}
          </>
        ) : loading ? (
          'Loading…'
        ) : (
          ''
        )}
      </p>
      <ScrollTable label="Ledger entries">
        <table data-testid="ledger-table">
          <caption>Balance changes, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              <th scope="col">Reason</th>
              <th scope="col">Amount</th>
              <th scope="col">Reference</th>
              <th scope="col">Balance after</th>
            </tr>
          </thead>
          <tbody>
            {(data?.data ?? []).map((row) => (
              <tr key={row.id} data-id={row.id}>
                <td>{formatTime(row.createdAt)}</td>
                <td>{row.reason}</td>
                <NumCell value={row.amount} text={formatAmount(row.amount)} />
                <td class="mono">{row.reference ?? '—'}</td>
                <NumCell value={row.balanceAfter} />
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <div class="pager">
        <button
          type="button"
          disabled={stack.length <= 1 || loading}
          onClick={() => setStack((s) => s.slice(0, -1))}
        >
          Newer
        </button>
        <button
          type="button"
          disabled={!older || loading}
          onClick={() => older && setStack((s) => [...s, older])}
        >
          Older
        </button>
      </div>
    </>
  );
}
