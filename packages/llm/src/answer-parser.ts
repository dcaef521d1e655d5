/**
 * The model's text -> a JSON value, for providers that answer in text (OpenAI-compatible, Ollama,
 * vLLM, llama.cpp, the embedded model). Weak local models wrap JSON in code fences, reasoning
 * (`<think>…</think>`) and prose, and write near-JSON: trailing commas, single quotes, unquoted
 * keys, comments, Python literals, or an answer cut off by the token limit. Each step that was
 * needed is named in `fixes`, so the log and the bench can say what was repaired.
 */
// jsonrepair ships CommonJS too (its `require` export); only its type declarations are ESM-only.
const { jsonrepair } = require('jsonrepair') as { jsonrepair: (text: string) => string };

export type ParseFix = 'think' | 'fence' | 'prose' | 'repaired' | 'double-encoded';

export type ParsedText = { ok: true; value: unknown; fixes: ParseFix[] } | { ok: false; reason: string };

/** Longest text we try to repair: jsonrepair is linear, but a runaway answer is not JSON anyway. */
const MAX_TEXT = 1_000_000;

export function parseModelText(content: string): ParsedText {
  const fixes: ParseFix[] = [];
  let text = content.trim();
  if (text === '') return { ok: false, reason: 'the model answered nothing' };
  if (text.length > MAX_TEXT) return { ok: false, reason: 'the answer is longer than 1,000,000 characters' };
  // Reasoning models (DeepSeek-R1, Qwen3) put their thoughts first; an unclosed one was cut off.
  if (/<think>/i.test(text)) {
    const after = text.replace(/<think>[\s\S]*?(<\/think>|$)/gi, '').trim();
    fixes.push('think');
    text = after;
    if (text === '') return { ok: false, reason: 'the answer holds only reasoning, no JSON' };
  }
  const fenced = /```[a-zA-Z]*[ \t]*\r?\n?([\s\S]*?)(```|$)/.exec(text);
  if (fenced?.[1] !== undefined && /[[{]/.test(fenced[1])) {
    fixes.push('fence');
    text = fenced[1].trim();
  }
  // A JSON string holding the JSON object ("{\"a\":1}"): some servers double-encode.
  if (text.startsWith('"')) {
    try {
      const inner: unknown = JSON.parse(text);
      if (typeof inner === 'string' && /^\s*[[{]/.test(inner)) {
        const r = parseModelText(inner);
        if (r.ok) return { ok: true, value: r.value, fixes: [...fixes, 'double-encoded', ...r.fixes] };
      }
    } catch {
      // not a JSON string: read on
    }
  }
  const start = firstJsonStart(text);
  if (start < 0) return { ok: false, reason: 'no JSON object in the answer' };
  const end = matchingEnd(text, start);
  const core = end > start ? text.slice(start, end + 1) : text.slice(start);
  if (start > 0 || (end > start && end < text.length - 1)) fixes.push('prose');
  let value: unknown;
  try {
    value = JSON.parse(core);
  } catch {
    try {
      value = JSON.parse(jsonrepair(core));
      fixes.push('repaired');
    } catch {
      return { ok: false, reason: 'the answer is not JSON and could not be repaired' };
    }
  }
  if (typeof value === 'string' && /^\s*[[{]/.test(value)) {
    const inner = parseModelText(value);
    if (inner.ok)
      return { ok: true, value: inner.value, fixes: [...fixes, 'double-encoded', ...inner.fixes] };
  }
  return { ok: true, value, fixes };
}

/** The first `{` (or `[` when no `{` comes before it) that starts the JSON. */
function firstJsonStart(text: string): number {
  const brace = text.indexOf('{');
  const bracket = text.indexOf('[');
  if (brace < 0) return bracket;
  if (bracket < 0) return brace;
  // "[{...}]" is an array of objects; "[note] {...}" is prose then an object.
  return bracket < brace && /^\[\s*\{/.test(text.slice(bracket)) ? bracket : brace;
}

/**
 * Index of the bracket closing the one at `start` (strings and escapes respected, single-quoted
 * strings too), or -1 when the text ends first (an answer cut off by the token limit).
 */
function matchingEnd(text: string, start: number): number {
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || (c === "'" && /[\s,:[{]/.test(text[i - 1] ?? ' '))) quote = c;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}
