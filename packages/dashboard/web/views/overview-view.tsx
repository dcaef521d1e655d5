import { getData } from '../api-client';
import { NumCell } from '../components/num-cell';
import { ScrollTable } from '../components/scroll-table';
import { Stat } from '../components/stat';
import { ErrorLine } from '../components/status-line';
import { UsageChart } from '../components/usage-chart';
import { formatNumber, formatTime } from '../format';
import { type Account, OPERATIONS, type Usage } from '../types';
import { useLoad } from '../use-load';

async function loadOverview(): Promise<{ account: Account; usage: Usage }> {
  const [account, usage] = await Promise.all([
    getData<Account>('/v1/account'),
    getData<Usage>('/v1/usage?days=30'),
  ]);
  return { account, usage };
}

export function OverviewView() {
  const { data, error } = useLoad(loadOverview, 'overview');
  return (
    <>
      <h1>Overview</h1>
      <ErrorLine message={error} />
      {data ? (
        <OverviewBody account={data.account} usage={data.usage} />
      ) : (
        !error && <p role="status">Loading…</p>
      )}
    </>
  );
}

function OverviewBody({ account, usage }: { account: Account; usage: Usage }) {
  const { plan, rateLimit } = account;
  const usedDays = usage.days.filter((d) => d.total !== 0);
  return (
    <>
      <dl class="stats">
        <Stat
          label="Balance"
          testId="balance"
          value={account.balance}
          text={formatNumber(account.balance)}
          note="credits"
        />
        <Stat label="Plan" testId="plan" value={plan.id} text={plan.name} />
        <Stat
          label="Monthly credits"
          testId="monthly-credits"
          value={plan.monthlyCredits}
          text={formatNumber(plan.monthlyCredits)}
          note={plan.monthlyCredits === 0 ? '(custom pricing)' : undefined}
        />
        <Stat
          label="Used, last 30 days"
          testId="used-30d"
          value={account.usedLast30Days}
          text={formatNumber(account.usedLast30Days)}
        />
        <Stat
          label="Rate limit"
          testId="rate-limit"
          value={rateLimit.remaining}
          text={formatNumber(rateLimit.remaining)}
          note={`of ${formatNumber(rateLimit.limit)} left per ${formatNumber(rateLimit.windowSeconds)} s, all keys together`}
        />
      </dl>
      <p class="muted">
        Rate-limit window resets {formatTime(rateLimit.resetsAt)}. Account created{' '}
        {formatTime(account.createdAt)}.
      </p>
      <h2>Usage</h2>
      <UsageChart days={usage.days} />
      <details>
        <summary>Usage as a table</summary>
        <ScrollTable label="Usage per day">
          <table data-testid="usage-table">
            <caption>Credits used per day (UTC), days with usage only</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                {OPERATIONS.map((op) => (
                  <th scope="col" key={op}>
                    {op}
                  </th>
                ))}
                <th scope="col">Total</th>
              </tr>
            </thead>
            <tbody>
              {usedDays.map((day) => (
                <tr key={day.date} data-date={day.date}>
                  <th scope="row">{day.date}</th>
                  {OPERATIONS.map((op) => (
                    <NumCell key={op} value={day[op]} />
                  ))}
                  <NumCell value={day.total} />
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
        {usedDays.length === 0 ? <p>No usage in the last 30 days.</p> : null}
      </details>
    </>
  );
}
