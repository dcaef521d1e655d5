import { useState } from 'preact/hooks';
import type { ScrapeDocument } from '../types';
import { Tabs } from './tabs';

export const DOCUMENT_TABS = ['Markdown', 'Text', 'HTML', 'JSON', 'Metadata'] as const;

/** What a tab shows: always text (html is its source, never parsed). */
export function tabContent(document: ScrapeDocument, tab: number): string {
  switch (DOCUMENT_TABS[tab]) {
    case 'Markdown':
      return document.markdown ?? '(no markdown)';
    case 'Text':
      return document.text ?? '(ask for the text format)';
    case 'HTML':
      return document.html ?? '(ask for the html format)';
    case 'JSON':
      return document.json === undefined
        ? '(ask for the json format)'
        : JSON.stringify(document.json, null, 2);
    default:
      return JSON.stringify(document.metadata ?? {}, null, 2);
  }
}

/** The tab that shows a requested format (markdown → Markdown, …). */
export function tabOfFormat(format: string): number {
  const index = DOCUMENT_TABS.findIndex((t) => t.toLowerCase() === format);
  return Math.max(0, index);
}

interface Props {
  document: ScrapeDocument;
  testId: string;
  initialTab?: number;
}

export function DocumentTabs({ document, testId, initialTab = 0 }: Props) {
  const [tab, setTab] = useState(initialTab);
  return (
    <Tabs label="Document formats" tabs={DOCUMENT_TABS} selected={tab} onSelect={setTab}>
      <pre class="output" data-testid={testId}>
        {tabContent(document, tab)}
      </pre>
    </Tabs>
  );
}
