import { getData } from '../api-client';
import { DocumentTabs } from '../components/document-tabs';
import { ErrorLine } from '../components/status-line';
import { UrlText } from '../components/url-text';
import { href } from '../router';
import type { DocumentResult } from '../types';
import { useLoad } from '../use-load';
import { verdictLabel } from '../verdicts';

interface Props {
  kind: 'batch' | 'crawl';
  jobId: string;
  itemId: string;
}

/** One scraped page of a batch or crawl, every format as text. */
export function DocumentView({ kind, jobId, itemId }: Props) {
  const base = kind === 'batch' ? '/v1/batch/scrape' : '/v1/crawl';
  const path = `${base}/${encodeURIComponent(jobId)}/results/${encodeURIComponent(itemId)}`;
  const { data, error } = useLoad(() => getData<DocumentResult>(path), path);
  const title = data?.document?.metadata?.title;
  const verdict = data?.document?.metadata?.verdict;
  const warning = data?.document?.warning;
  return (
    <>
      <h1>Document</h1>
      <p>
        <a href={href('jobs', kind, jobId)}>Back to the {kind}</a>
      </p>
      <ErrorLine message={error} />
      {data ? (
        <>
          <dl class="facts">
            <dt>URL</dt>
            <dd class="wrap">
              <UrlText url={data.url} />
            </dd>
            <dt>Title</dt>
            <dd class="wrap">{typeof title === 'string' ? title : '—'}</dd>
            <dt>Status</dt>
            <dd>{data.status}</dd>
            {typeof verdict === 'string' ? (
              <>
                <dt>Verdict</dt>
                <dd>
                  {/* Text only: the page's own words never become markup here. */}
                  <span class="badge" data-testid="document-verdict" data-verdict={verdict}>
                    {verdictLabel(verdict)}
                  </span>
                </dd>
              </>
            ) : null}
            {typeof warning === 'string' && warning ? (
              <>
                <dt>Warning</dt>
                <dd class="wrap" data-testid="document-warning">
                  {warning}
                </dd>
              </>
            ) : null}
            {data.error ? (
              <>
                <dt>Error</dt>
                <dd class="wrap">
                  {data.error} {data.code ? `(${data.code})` : ''}
                </dd>
              </>
            ) : null}
          </dl>
          {data.document ? (
            <DocumentTabs document={data.document} testId="document-output" />
          ) : (
            <p>No document: the page {data.status === 'failed' ? 'failed' : 'is not done yet'}.</p>
          )}
        </>
      ) : null}
    </>
  );
}
