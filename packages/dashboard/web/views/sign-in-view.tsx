import { useRef, useState } from 'preact/hooks';
import { errorMessage } from '../api-client';
import { signIn } from '../session';
import type { SessionInfo } from '../types';

/**
 * The key goes to POST /dashboard/api/session as JSON and is forgotten: no storage, no URL (the
 * form's method="post" keeps it out of the URL even if a submit happens before the script runs).
 */
interface Props {
  onSignedIn: (session: SessionInfo) => void;
  /** Why the form is back (a lost session), announced politely; failures use role="alert". */
  notice: string | null;
}

export function SignInView({ onSignedIn, notice }: Props) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: Event) => {
    event.preventDefault();
    const input = inputRef.current;
    const key = input?.value.trim() ?? '';
    if (!key) {
      setError('Enter an API key');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const session = await signIn(key);
      if (input) input.value = '';
      onSignedIn(session);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(false);
    }
  };

  return (
    <main id="main" class="sign-in">
      <h1>Sign in</h1>
      <p>Sign in with one of your API keys. The page keeps only a session cookie, never the key.</p>
      <p role="status">{notice ?? ''}</p>
      <form method="post" onSubmit={onSubmit}>
        <label for="api-key">API key</label>
        <input id="api-key" ref={inputRef} type="password" autocomplete="off" spellcheck={false} required />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error ? (
        <p class="error" role="alert">
          {error}
        </p>
      ) : null}
    </main>
  );
}
