/**
 * The whole service in one process (gateway + every worker) for the client libraries and the
 * MCP server: real PostgreSQL and Redis, the local fixture site as "the web" and a fake
 * Anthropic server as the model. Clients reach it over HTTP like any user would.
 */
import { type FakeLlmServer, type FixtureSite, startFakeAnthropic, startFixtureSite } from '@wcs/testing';
import { createTestAccount, type Stack, startStack, type TestAccount } from '../harness';

export interface ClientStack {
  /** Base URL of the gateway (what clients call SERVICE_BASE_URL). */
  baseUrl: string;
  /** A hobby account with plenty of credits. */
  account: TestAccount;
  /** The fixture site; README examples' `https://example.com` is rewritten to this. */
  site: FixtureSite;
  stack: Stack;
  /** Environment a client process needs: SERVICE_BASE_URL, SERVICE_API_KEY, WCS_EXAMPLE_SITE. */
  clientEnv: Record<string, string>;
  close(): Promise<void>;
}

/** The fake model answers every extraction with this (other schema keys come back null). */
export const FAKE_EXTRACTION = { title: 'Understanding Web Content Extraction' };

/**
 * `browser: true` lets the workers render in Chromium (page options: actions, screenshots); off by
 * default so the other client tests stay on the plain fetch engine.
 */
export async function startClientStack(
  opts: { credits?: number; browser?: boolean } = {},
): Promise<ClientStack> {
  let site: FixtureSite | undefined;
  let model: FakeLlmServer | undefined;
  let stack: Stack | undefined;
  try {
    [site, model] = await Promise.all([
      startFixtureSite(),
      startFakeAnthropic(() => ({ data: FAKE_EXTRACTION })),
    ]);
    stack = await startStack({
      crawlWorker: true,
      mapWorker: true,
      extractWorker: true,
      monitorScheduler: true,
      webhookDispatcher: true,
      env: {
        BROWSER_ENABLED: opts.browser ? 'true' : 'false',
        ANTHROPIC_API_KEY: 'sk-ant-test-key',
        ANTHROPIC_BASE_URL: model.url,
        EXTRACT_MODEL: 'claude-fake',
        EXTRACT_MODEL_MAX_RETRIES: '0',
      },
    });
    const account = await createTestAccount({ plan: 'hobby', credits: opts.credits ?? 100_000 });
    const fixture = site;
    const fakeModel = model;
    const running = stack;
    return {
      baseUrl: running.url,
      account,
      site: fixture,
      stack: running,
      clientEnv: {
        SERVICE_BASE_URL: running.url,
        SERVICE_API_KEY: account.apiKey,
        WCS_EXAMPLE_SITE: fixture.url,
      },
      async close() {
        await running.close();
        await Promise.all([fixture.close(), fakeModel.close()]);
      },
    };
  } catch (err) {
    await stack?.close();
    await Promise.all([site?.close(), model?.close()]);
    throw err;
  }
}
