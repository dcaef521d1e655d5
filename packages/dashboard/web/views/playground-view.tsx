import { useState } from 'preact/hooks';
import { errorMessage, request } from '../api-client';
import { copyText } from '../clipboard';
import { DocumentTabs, tabOfFormat } from '../components/document-tabs';
import { ErrorLine, StatusLine } from '../components/status-line';
import { type ScrapeRequest, type SnippetLanguage, snippet } from '../snippets';
import type { ScrapeDocument } from '../types';

const FORMATS = ['markdown', 'html', 'text', 'json'] as const;
const ENGINES = ['auto', 'fetch', 'browser'] as const;
const COPY_BUTTONS: ReadonlyArray<{ language: SnippetLanguage; label: string }> = [
  { language: 'curl', label: 'Copy as curl' },
  { language: 'node', label: 'Copy as Node' },
  { language: 'python', label: 'Copy as Python' },
];

/** Empty = the API's default (the field is left out); otherwise an integer. */
function optionalInt(value: string): number | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? Math.trunc(n) : undefined;
}

/** One POST /v1/scrape from the page (it costs a credit like any other), and the same call as code. */
export function PlaygroundView() {
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<string>('markdown');
  const [onlyMainContent, setOnlyMainContent] = useState(true);
  const [engine, setEngine] = useState<string>('auto');
  const [waitFor, setWaitFor] = useState('');
  const [timeout, setTimeoutMs] = useState('');
  const [busy, setBusy] = useState(false);
  // Each answer remounts the tabs on the tab of the format asked for (`seq` is the key).
  const [result, setResult] = useState<{ doc: ScrapeDocument; format: string; seq: number } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [code, setCode] = useState<string | null>(null);

  const body = (): ScrapeRequest => {
    const req: ScrapeRequest = { url: url.trim(), format, onlyMainContent, engine };
    const wait = optionalInt(waitFor);
    const budget = optionalInt(timeout);
    if (wait !== undefined) req.waitFor = wait;
    if (budget !== undefined) req.timeout = budget;
    return req;
  };

  const scrape = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setStatus('Scraping…');
    try {
      const req = body();
      const { data } = await request<{ data: ScrapeDocument }>('/v1/scrape', { method: 'POST', body: req });
      setResult((r) => ({ doc: data, format: req.format, seq: (r?.seq ?? 0) + 1 }));
      setStatus('Scraped');
    } catch (err) {
      setResult(null);
      setStatus(null);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const copy = async (language: SnippetLanguage) => {
    const text = snippet(language, body(), location.origin);
    setCode(text);
    setStatus((await copyText(text)) ? 'Copied' : 'Shown below: copy it by hand');
  };

  return (
    <>
      <h1>Playground</h1>
      <form class="playground" onSubmit={scrape}>
        <div class="field wide">
          <label for="pg-url">URL</label>
          <input
            id="pg-url"
            type="text"
            inputMode="url"
            required
            value={url}
            onInput={(e) => setUrl(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="pg-format">Format</label>
          <select id="pg-format" value={format} onChange={(e) => setFormat(e.currentTarget.value)}>
            {FORMATS.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="pg-engine">Engine</label>
          <select id="pg-engine" value={engine} onChange={(e) => setEngine(e.currentTarget.value)}>
            {ENGINES.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="pg-wait">Wait for (ms)</label>
          <input
            id="pg-wait"
            type="number"
            min={0}
            max={30000}
            step={1}
            value={waitFor}
            onInput={(e) => setWaitFor(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="pg-timeout">Timeout (ms)</label>
          <input
            id="pg-timeout"
            type="number"
            min={1000}
            max={120000}
            step={1}
            value={timeout}
            onInput={(e) => setTimeoutMs(e.currentTarget.value)}
          />
        </div>
        <div class="field check">
          <input
            id="pg-main"
            type="checkbox"
            checked={onlyMainContent}
            onChange={(e) => setOnlyMainContent(e.currentTarget.checked)}
          />
          <label for="pg-main">Only main content</label>
        </div>
        <div class="field wide">
          <button type="submit" class="primary" disabled={busy}>
            Scrape
          </button>
        </div>
      </form>
      <StatusLine message={status} />
      <ErrorLine message={error} />
      {result ? (
        <section aria-labelledby="pg-result">
          <h2 id="pg-result">Result</h2>
          <DocumentTabs
            key={result.seq}
            document={result.doc}
            testId="playground-output"
            initialTab={tabOfFormat(result.format)}
          />
        </section>
      ) : null}
      <section aria-labelledby="pg-code">
        <h2 id="pg-code">The same request as code</h2>
        <p>The key is read from the WCS_API_KEY environment variable, never written into the code.</p>
        <div class="toolbar">
          {COPY_BUTTONS.map((b) => (
            <button key={b.language} type="button" onClick={() => copy(b.language)}>
              {b.label}
            </button>
          ))}
        </div>
        {code ? <pre data-testid="snippet">{code}</pre> : null}
      </section>
    </>
  );
}
