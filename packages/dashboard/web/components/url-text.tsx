import { safeHref } from '../safe-href';

/** A scraped URL: a link that leaves the page safely when it is http(s), plain text otherwise. */
export function UrlText({ url }: { url: string | null | undefined }) {
  if (!url) return <span>—</span>;
  const target = safeHref(url);
  if (!target) return <span class="url">{url}</span>;
  return (
    <a class="url" href={target} target="_blank" rel="noopener noreferrer nofollow">
      {url}
    </a>
  );
}
