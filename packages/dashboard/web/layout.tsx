import { useEffect, useRef, useState } from 'preact/hooks';
import { errorMessage } from './api-client';
import { ErrorLine } from './components/status-line';
import { type Route, useRoute } from './router';
import { signOut } from './session';
import type { SessionInfo } from './types';
import { BatchDetailView } from './views/batch-detail-view';
import { CapabilitiesView } from './views/capabilities-view';
import { CrawlDetailView } from './views/crawl-detail-view';
import { DocumentView } from './views/document-view';
import { JobsView } from './views/jobs-view';
import { KeysView } from './views/keys-view';
import { LedgerView } from './views/ledger-view';
import { MonitorDetailView } from './views/monitor-detail-view';
import { MonitorsView } from './views/monitors-view';
import { OverviewView } from './views/overview-view';
import { PlaygroundView } from './views/playground-view';

const NAV: ReadonlyArray<{ label: string; hash: string; section: Route['name'][] }> = [
  { label: 'Overview', hash: '#/overview', section: ['overview'] },
  { label: 'Ledger', hash: '#/ledger', section: ['ledger'] },
  { label: 'API keys', hash: '#/keys', section: ['keys'] },
  { label: 'Monitors', hash: '#/monitors', section: ['monitors', 'monitor'] },
  { label: 'Jobs', hash: '#/jobs', section: ['jobs', 'batch', 'crawl', 'document'] },
  { label: 'Playground', hash: '#/playground', section: ['playground'] },
  { label: 'Capabilities', hash: '#/capabilities', section: ['capabilities'] },
];

function View({ route }: { route: Route }) {
  switch (route.name) {
    case 'overview':
      return <OverviewView />;
    case 'ledger':
      return <LedgerView />;
    case 'keys':
      return <KeysView />;
    case 'monitors':
      return <MonitorsView />;
    case 'monitor':
      return <MonitorDetailView key={route.id} id={route.id} />;
    case 'jobs':
      return <JobsView />;
    case 'batch':
      return <BatchDetailView key={route.id} id={route.id} />;
    case 'crawl':
      return <CrawlDetailView key={route.id} id={route.id} />;
    case 'document':
      return <DocumentView key={`${route.jobId}/${route.itemId}`} {...route} />;
    case 'playground':
      return <PlaygroundView />;
    case 'capabilities':
      return <CapabilitiesView />;
  }
}

/** The signed-in frame: skip link, header with nav and sign-out, one <main> with the routed view. */
export function Layout({ session, onSignedOut }: { session: SessionInfo; onSignedOut: () => void }) {
  const route = useRoute();
  const mainRef = useRef<HTMLElement>(null);
  const [error, setError] = useState<string | null>(null);
  const first = useRef(true);

  // After a navigation, move focus to the new view so screen readers start there.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    mainRef.current?.focus();
  }, [route]);

  const onSignOut = () => {
    signOut().then(onSignedOut, (err: unknown) => setError(errorMessage(err)));
  };

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="brand">Web Content Service</p>
        <nav aria-label="Dashboard">
          <ul>
            {NAV.map((item) => (
              <li key={item.hash}>
                <a href={item.hash} aria-current={item.section.includes(route.name) ? 'page' : undefined}>
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span class="muted">Key {session.keyPrefix}…</span>
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <ErrorLine message={error} />
      <main id="main" tabIndex={-1} ref={mainRef}>
        <View route={route} />
      </main>
    </>
  );
}
