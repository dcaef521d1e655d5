/**
 * The goal's judge: one call to the extract model (the same provider and settings as
 * POST /v1/extract, called from here like the extract-worker calls it) asking whether a change
 * matters to what the user watches for. The model sees the goal, the diff and the new content,
 * together within EXTRACT_INPUT_TOKEN_BUDGET. Providers that answer in text (OpenAI-compatible,
 * Ollama, the embedded model) have it parsed and repaired as an extract's answer is. A timeout or
 * an answer that is not `{ relevant: boolean, reason: string }` throws (the check then fails:
 * never a silent drop).
 */
import type { Judgement } from '@wcs/db';
import { ExtractionFailedError, TimeoutError } from '@wcs/errors';
import {
  buildModelInput,
  CHARS_PER_TOKEN,
  compilePlainSchema,
  type LlmAnswer,
  type ProviderChoice,
  parseModelText,
  validateAnswer,
} from '@wcs/llm';
import { EXTRACT_CREDITS } from '@wcs/queues';

/** Credits of one judgement: what an extract costs, on top of the check. */
export const JUDGE_COST = EXTRACT_CREDITS;

export const JUDGE_SYSTEM_PROMPT = [
  'You watch a web page for a user and decide whether a change on it matters to their goal.',
  'You are given the goal, the diff of the page (lines starting with + were added, - removed) and the new page.',
  'Answer relevant: true only when the change itself bears on the goal; false when it does not.',
  'Give the reason in one short sentence.',
].join(' ');

const JUDGE_SCHEMA = compilePlainSchema({ relevant: 'boolean', reason: 'string' });

export interface JudgeSettings {
  inputTokenBudget: number;
  maxTokens: number;
  modelTimeoutMs: number;
}

export interface JudgeInput {
  goal: string;
  url: string;
  diffText: string;
  content: string;
  /** The check's remaining budget (ms): the call never outlives the job. */
  remainingMs: number;
  signal?: AbortSignal;
}

/** The user turn, within the token budget: the diff gets at most half of it, the page the rest. */
export function judgeMessage(
  input: Pick<JudgeInput, 'goal' | 'url' | 'diffText' | 'content'>,
  budgetTokens: number,
): string {
  const diffChars = Math.floor((budgetTokens / 2) * CHARS_PER_TOKEN);
  const diff =
    input.diffText.length > diffChars
      ? `${input.diffText.slice(0, input.diffText.lastIndexOf('\n', diffChars) + 1 || diffChars)}[diff cut]\n`
      : input.diffText;
  const goalTokens = Math.ceil(input.goal.length / CHARS_PER_TOKEN);
  const pageBudget = Math.max(1, budgetTokens - Math.ceil(diff.length / CHARS_PER_TOKEN) - goalTokens);
  const page = buildModelInput({ url: input.url, markdown: input.content }, pageBudget);
  return `Goal: ${input.goal}\n\n<diff>\n${diff}</diff>\n\n<page>\n${page.text}\n</page>`;
}

export async function judgeChange(
  provider: ProviderChoice,
  settings: JudgeSettings,
  input: JudgeInput,
): Promise<Judgement> {
  if (!provider.ok) throw provider.error;
  const timeoutMs = Math.max(1, Math.min(settings.modelTimeoutMs, input.remainingMs));
  let answer: Awaited<ReturnType<typeof provider.provider.complete>>;
  try {
    answer = await provider.provider.complete({
      system: JUDGE_SYSTEM_PROMPT,
      user: judgeMessage(input, settings.inputTokenBudget),
      jsonSchema: JUDGE_SCHEMA.jsonSchema,
      freeForm: false,
      maxTokens: Math.min(settings.maxTokens, 512),
      timeoutMs,
      ...(input.signal ? { signal: input.signal } : {}),
    });
  } catch (err) {
    if (err instanceof TimeoutError)
      throw new TimeoutError(`The goal's judge did not answer within ${timeoutMs} ms`);
    throw err;
  }
  return readJudgement(answer);
}

/**
 * The judgement in the model's answer: structured data as is (Anthropic's tool call), text parsed,
 * repaired and coerced like an extract's answer (`"true"` → true). Throws when no boolean
 * `relevant` comes out of it.
 */
export function readJudgement(answer: Pick<LlmAnswer, 'data' | 'text'>): Judgement {
  let value: unknown = answer.data;
  let why = '';
  if (value === undefined) {
    const parsed = parseModelText(answer.text ?? '');
    if (parsed.ok) value = parsed.value;
    else why = `: ${parsed.reason}`;
  }
  const v = value === undefined ? null : validateAnswer(JUDGE_SCHEMA, value);
  const relevant = v?.ok ? v.data.relevant : undefined;
  const reason = v?.ok ? v.data.reason : undefined;
  if (typeof relevant !== 'boolean') {
    throw new ExtractionFailedError(
      `The goal's judge gave no usable answer (expected { relevant: boolean, reason: string })${why}`,
    );
  }
  return { relevant, reason: typeof reason === 'string' ? reason.slice(0, 1_000) : '' };
}
