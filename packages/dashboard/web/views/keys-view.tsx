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

export function KeysView() {
  const keys = useLoad(loadKeys, 'keys');
  const [name, setName] = useState('');
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
      const key = await sendData<CreatedKey>('POST', '/v1/keys', trimmed ? { name: trimmed } : {});
      setCreated(key);
      setName('');
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
                <td>
                  {key.revokedAt ? null : (
                    <button type="button" class="danger" onClick={() => setRevoking(key)}>
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
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
