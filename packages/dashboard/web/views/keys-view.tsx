import { useState } from 'preact/hooks';
import { errorMessage, getData, sendData } from '../api-client';
import { copyText } from '../clipboard';
import { ConfirmDialog } from '../components/confirm-dialog';
import { ScrollTable } from '../components/scroll-table';
import { ErrorLine, StatusLine } from '../components/status-line';
import { formatTime } from '../format';
import type { ApiKeyRow, CreatedKey } from '../types';
import { useLoad } from '../use-load';

const loadKeys = () => getData<ApiKeyRow[]>('/v1/keys');

/** A limit input's text as the API's value: blank = no limit (null), else whole credits. */
function limitValue(text: string): number | null | 'invalid' {
  const t = text.trim();
  if (t === '') return null;
  return /^\d{1,10}$/.test(t) && Number(t) <= 2_147_483_647 ? Number(t) : 'invalid';
}

/** "spent / limit" of one period, or "spent (no limit)". */
function budgetCell(spent: number, limit: number | null): string {
  return limit === null ? `${spent} used · no limit` : `${spent} / ${limit} used`;
}

function LimitInputs(props: {
  idPrefix: string;
  daily: string;
  monthly: string;
  onDaily: (v: string) => void;
  onMonthly: (v: string) => void;
}) {
  return (
    <>
      <label for={`${props.idPrefix}-daily`}>Daily credit limit</label>
      <input
        id={`${props.idPrefix}-daily`}
        type="text"
        inputMode="numeric"
        placeholder="no limit"
        value={props.daily}
        onInput={(e) => props.onDaily(e.currentTarget.value)}
      />
      <label for={`${props.idPrefix}-monthly`}>Monthly credit limit</label>
      <input
        id={`${props.idPrefix}-monthly`}
        type="text"
        inputMode="numeric"
        placeholder="no limit"
        value={props.monthly}
        onInput={(e) => props.onMonthly(e.currentTarget.value)}
      />
    </>
  );
}

export function KeysView() {
  const keys = useLoad(loadKeys, 'keys');
  const [name, setName] = useState('');
  const [daily, setDaily] = useState('');
  const [monthly, setMonthly] = useState('');
  const [editing, setEditing] = useState<ApiKeyRow | null>(null);
  const [editDaily, setEditDaily] = useState('');
  const [editMonthly, setEditMonthly] = useState('');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKeyRow | null>(null);
  const [busy, setBusy] = useState(false);
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const create = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const trimmed = name.trim();
      const dailyCreditLimit = limitValue(daily);
      const monthlyCreditLimit = limitValue(monthly);
      if (dailyCreditLimit === 'invalid' || monthlyCreditLimit === 'invalid') {
        setError('A credit limit is a whole number of credits, or blank for no limit');
        return;
      }
      const key = await sendData<CreatedKey>('POST', '/v1/keys', {
        ...(trimmed ? { name: trimmed } : {}),
        ...(dailyCreditLimit !== null ? { dailyCreditLimit } : {}),
        ...(monthlyCreditLimit !== null ? { monthlyCreditLimit } : {}),
      });
      setCreated(key);
      setName('');
      setDaily('');
      setMonthly('');
      setStatus(`Key ${key.prefix}… created`);
      keys.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const revoke = async () => {
    if (!revoking) return;
    setBusy(true);
    setError(null);
    try {
      await sendData('DELETE', `/v1/keys/${encodeURIComponent(revoking.id)}`);
      setStatus(`Key ${revoking.prefix}… revoked`);
      if (created?.id === revoking.id) setCreated(null);
      keys.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setRevoking(null);
    }
  };

  const openLimits = (key: ApiKeyRow) => {
    setEditing(key);
    setEditDaily(key.dailyCreditLimit === null ? '' : String(key.dailyCreditLimit));
    setEditMonthly(key.monthlyCreditLimit === null ? '' : String(key.monthlyCreditLimit));
  };

  const saveLimits = async () => {
    if (!editing) return;
    const dailyCreditLimit = limitValue(editDaily);
    const monthlyCreditLimit = limitValue(editMonthly);
    if (dailyCreditLimit === 'invalid' || monthlyCreditLimit === 'invalid') {
      setError('A credit limit is a whole number of credits, or blank for no limit');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await sendData('PATCH', `/v1/keys/${encodeURIComponent(editing.id)}`, {
        dailyCreditLimit,
        monthlyCreditLimit,
      });
      setStatus(`Limits of key ${editing.prefix}… saved`);
      keys.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setEditing(null);
    }
  };

  const copy = async () => {
    if (!created) return;
    setStatus((await copyText(created.key)) ? 'Copied' : 'Copy failed: select the key and copy it by hand');
  };

  return (
    <>
      <h1>API keys</h1>
      <form class="toolbar" onSubmit={create}>
        <label for="key-name">Key name</label>
        <input
          id="key-name"
          type="text"
          maxLength={100}
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <LimitInputs
          idPrefix="new-key"
          daily={daily}
          monthly={monthly}
          onDaily={setDaily}
          onMonthly={setMonthly}
        />
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </form>
      {created ? (
        <section class="new-key" aria-labelledby="new-key-title">
          <h2 id="new-key-title">Your new key</h2>
          <p>It is shown this once: copy it now.</p>
          <code data-testid="new-key">{created.key}</code>{' '}
          <button type="button" onClick={copy}>
            Copy key
          </button>
        </section>
      ) : null}
      <StatusLine message={status} />
      <ErrorLine message={error ?? keys.error} />
      <p class="muted">
        A key with a limit is refused (402 KEY_BUDGET_EXCEEDED) once a call would pass it; days and months are
        UTC. Such a key cannot change limits or create keys.
      </p>
      <ScrollTable label="API keys">
        <table data-testid="keys-table">
          <caption>Keys of this account, oldest first</caption>
          <thead>
            <tr>
              <th scope="col">Prefix</th>
              <th scope="col">Name</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
              <th scope="col">Today (UTC)</th>
              <th scope="col">This month (UTC)</th>
              <th scope="col">Action</th>
            </tr>
          </thead>
          <tbody>
            {(keys.data ?? []).map((key) => (
              <tr key={key.id} data-key-id={key.id}>
                <td class="mono">
                  {key.prefix}…{key.current ? <span class="badge">this session</span> : null}
                </td>
                <td>{key.name ?? '—'}</td>
                <td>{formatTime(key.createdAt)}</td>
                <td>{formatTime(key.lastUsedAt)}</td>
                <td>{key.revokedAt ? 'revoked' : 'active'}</td>
                <td class="num">{budgetCell(key.spentToday, key.dailyCreditLimit)}</td>
                <td class="num">{budgetCell(key.spentThisMonth, key.monthlyCreditLimit)}</td>
                <td>
                  {key.revokedAt ? null : (
                    <>
                      <button type="button" onClick={() => openLimits(key)}>
                        Limits
                      </button>{' '}
                      <button type="button" class="danger" onClick={() => setRevoking(key)}>
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      {editing ? (
        <ConfirmDialog
          title={`Credit limits of key ${editing.prefix}…`}
          confirmLabel="Save limits"
          cancelLabel="Cancel"
          busy={busy}
          onConfirm={saveLimits}
          onCancel={() => setEditing(null)}
        >
          <p>
            Blank means no limit. Used today: {editing.spentToday}; this month: {editing.spentThisMonth}.
          </p>
          <div class="limit-fields">
            <LimitInputs
              idPrefix="edit-key"
              daily={editDaily}
              monthly={editMonthly}
              onDaily={setEditDaily}
              onMonthly={setEditMonthly}
            />
          </div>
        </ConfirmDialog>
      ) : null}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke key ${revoking.prefix}…?`}
          confirmLabel="Revoke key"
          cancelLabel="Cancel"
          busy={busy}
          onConfirm={revoke}
          onCancel={() => setRevoking(null)}
        >
          <p>
            Requests with this key will be refused at once
            {revoking.current ? ', and this session ends: it was opened with this key' : ''}.
          </p>
        </ConfirmDialog>
      ) : null}
    </>
  );
}
