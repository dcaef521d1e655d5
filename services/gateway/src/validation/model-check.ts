/**
 * Work priced for the extract model (the `summary` format, changeTracking's `json` mode, extract
 * and Firecrawl's `json` format) is refused here, before any charge or fetch, when the deployment
 * has no model: 503 MODEL_NOT_CONFIGURED naming what to set. The workers keep their own refusal
 * (a worker configured apart from the gateway), which their callers refund.
 */
import { ModelNotConfiguredError } from '@wcs/errors';
import { modelCredits, type PageOptions } from '@wcs/queues';
import type { DeploymentFacts } from '../deps';

type ModelFacts = Pick<DeploymentFacts, 'extract' | 'extractSetup'>;

/** `what` (e.g. "The summary format") needs the model: throws when there is none. */
export function requireModel(facts: ModelFacts, what: string): void {
  if (facts.extract.configured) return;
  throw new ModelNotConfiguredError(
    `${what} needs the extract model, which is not configured on this deployment: ${
      facts.extractSetup ?? 'set ANTHROPIC_API_KEY or LLM_PROVIDER with its settings'
    }`,
  );
}

/** The page options' model work (summary, changeTracking json), refused without a model. */
export function requireModelForPage(
  facts: ModelFacts,
  page: Pick<PageOptions, 'formats' | 'changeTrackingOptions'> | undefined,
): void {
  if (facts.extract.configured || modelCredits(page) === 0) return;
  requireModel(
    facts,
    page?.formats?.includes('summary') ? 'The summary format' : 'The json mode of changeTracking',
  );
}
