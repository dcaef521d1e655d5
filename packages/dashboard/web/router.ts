import { useEffect, useState } from 'preact/hooks';

/** The hash routes of docs/dashboard/contract.md. */
export type Route =
  | { name: 'overview' }
  | { name: 'ledger' }
  | { name: 'keys' }
  | { name: 'capabilities' }
  | { name: 'monitors' }
  | { name: 'monitor'; id: string }
  | { name: 'jobs' }
  | { name: 'batch'; id: string }
  | { name: 'crawl'; id: string }
  | { name: 'document'; kind: 'batch' | 'crawl'; jobId: string; itemId: string }
  | { name: 'playground' };

export function parseRoute(hash: string): Route {
  const parts = hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((p) => p !== '')
    .map((p) => {
      try {
        return decodeURIComponent(p);
      } catch {
        return p;
      }
    });
  const [head, a, b, c] = parts;
  switch (head) {
    case 'ledger':
      return { name: 'ledger' };
    case 'keys':
      return { name: 'keys' };
    case 'capabilities':
      return { name: 'capabilities' };
    case 'monitors':
      return a ? { name: 'monitor', id: a } : { name: 'monitors' };
    case 'jobs':
      if ((a === 'batch' || a === 'crawl') && b) return { name: a, id: b };
      return { name: 'jobs' };
    case 'documents':
      if ((a === 'batch' || a === 'crawl') && b && c)
        return { name: 'document', kind: a, jobId: b, itemId: c };
      return { name: 'jobs' };
    case 'playground':
      return { name: 'playground' };
    default:
      return { name: 'overview' };
  }
}

/** Builds `#/a/b` with every segment encoded (ids come from the API, not from us). */
export function href(...segments: string[]): string {
  return `#/${segments.map(encodeURIComponent).join('/')}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    // "#main" (the skip link) and other in-page anchors are not routes: keep the current view.
    const onChange = () => {
      if (location.hash === '' || location.hash.startsWith('#/')) setRoute(parseRoute(location.hash));
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
