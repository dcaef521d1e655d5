import { useCallback, useEffect, useState } from 'preact/hooks';
import { errorMessage, setUnauthorizedHandler } from './api-client';
import { ErrorLine } from './components/status-line';
import { Layout } from './layout';
import { loadSession } from './session';
import type { SessionInfo } from './types';
import { SignInView } from './views/sign-in-view';

type State =
  | { kind: 'loading' }
  | { kind: 'signed-out'; notice?: string }
  | { kind: 'signed-in'; session: SessionInfo };

/** Session gate: asks the server whether the cookie is live, then shows the sign-in form or the app. */
export function App() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [error, setError] = useState<string | null>(null);

  const signedOut = useCallback(() => setState({ kind: 'signed-out' }), []);
  // A 401 while signed in: the session expired or its key was revoked.
  const sessionLost = useCallback(
    () =>
      setState((s) =>
        s.kind === 'signed-in' ? { kind: 'signed-out', notice: 'Your session has ended: sign in again.' } : s,
      ),
    [],
  );

  useEffect(() => {
    setUnauthorizedHandler(sessionLost);
    loadSession().then(
      (session) => setState(session ? { kind: 'signed-in', session } : { kind: 'signed-out' }),
      (err: unknown) => {
        setError(errorMessage(err));
        setState({ kind: 'signed-out' });
      },
    );
  }, [sessionLost]);

  if (state.kind === 'loading') {
    return (
      <main id="main" class="centered">
        <p role="status">Loading…</p>
      </main>
    );
  }
  if (state.kind === 'signed-out') {
    return (
      <>
        <ErrorLine message={error} />
        <SignInView
          notice={state.notice ?? null}
          onSignedIn={(session) => setState({ kind: 'signed-in', session })}
        />
      </>
    );
  }
  return <Layout session={state.session} onSignedOut={signedOut} />;
}
