import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractEnv } from '@wcs/config';
import { modelSetupHint, modelSummary } from './model-summary';
import { providerFromEnv } from './provider-from-env';

const envOf = (vars: Record<string, string>) => extractEnv.parse(vars);

describe('modelSummary agrees with providerFromEnv', () => {
  it('local: configured only when LLM_MODEL_PATH names an existing file', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-summary-'));
    const file = path.join(dir, 'tiny.gguf');
    writeFileSync(file, 'not really a model');
    const missing = envOf({ LLM_PROVIDER: 'local', LLM_MODEL_PATH: path.join(dir, 'absent.gguf') });
    expect(modelSummary(missing)).toEqual({ configured: false, provider: 'local', model: 'absent.gguf' });
    expect(providerFromEnv(missing).ok).toBe(false);
    expect(modelSetupHint(missing)).toContain('LLM_MODEL_PATH');
    const present = envOf({ LLM_PROVIDER: 'local', LLM_MODEL_PATH: file });
    expect(modelSummary(present).configured).toBe(true);
    expect(modelSetupHint(present)).toBeNull();
  });

  it('names the variables to set for each provider, never a key', () => {
    const none = envOf({ ANTHROPIC_API_KEY: '' });
    expect(modelSummary(none).configured).toBe(false);
    expect(modelSetupHint(none)).toMatch(/ANTHROPIC_API_KEY.*LLM_BASE_URL/);
    const noModel = envOf({
      LLM_PROVIDER: 'ollama',
      LLM_BASE_URL: 'http://ollama:11434',
      LLM_API_KEY: 'sk-x',
    });
    expect(providerFromEnv(noModel).ok).toBe(false);
    expect(modelSetupHint(noModel)).toBe('set LLM_MODEL (e.g. llama3.1:8b) for LLM_PROVIDER=ollama');
    expect(modelSetupHint(envOf({ LLM_PROVIDER: 'vllm' }))).toBe(
      'set LLM_BASE_URL and LLM_MODEL for LLM_PROVIDER=vllm',
    );
    // Empty is unset (compose passes `${LLM_PROVIDER:-}`): EXTRACT_PROVIDER decides.
    expect(modelSummary(envOf({ LLM_PROVIDER: '', EXTRACT_PROVIDER: 'openai' })).provider).toBe('openai');
  });
});
