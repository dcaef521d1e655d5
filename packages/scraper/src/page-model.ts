/**
 * The extract model as the scraper uses it (@wcs/llm's PageModel; the worker's wiring makes it
 * from its env): the `summary` format and the `changeTracking` format's `json` mode. A page whose
 * model call fails fails as a whole (refunded with its page).
 */
export interface PageForModelCall {
  url: string;
  title?: string | null;
  description?: string | null;
  markdown: string;
}

export interface PageModel {
  summarize(r: { page: PageForModelCall; timeoutMs?: number; signal?: AbortSignal }): Promise<string>;
  extractValues(r: {
    page: PageForModelCall;
    schema?: unknown;
    prompt?: string;
    timeoutMs?: number;
    signal?: AbortSignal;
  }): Promise<Record<string, unknown>>;
}
