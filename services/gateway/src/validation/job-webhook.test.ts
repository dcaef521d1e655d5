import { MAX_WEBHOOK_METADATA_BYTES } from '@wcs/queues';
import { checkJobWebhook } from './job-webhook';

const open = { allowPrivateTargets: true, targetDnsTimeoutMs: 3_000 };

describe('checkJobWebhook', () => {
  it('turns a bare URL into every event', async () => {
    await expect(checkJobWebhook('http://127.0.0.1:9/hook', open)).resolves.toEqual({
      url: 'http://127.0.0.1:9/hook',
      events: ['started', 'page', 'completed', 'failed'],
    });
  });

  it('keeps headers, metadata and the asked events in canonical order, once each', async () => {
    const w = await checkJobWebhook(
      {
        url: 'https://hooks.example.com/x',
        headers: { authorization: 'Bearer t' },
        metadata: { run: 7 },
        events: ['completed', 'started', 'completed'],
      },
      open,
    );
    expect(w).toEqual({
      url: 'https://hooks.example.com/x',
      headers: { authorization: 'Bearer t' },
      metadata: { run: 7 },
      events: ['started', 'completed'],
    });
  });

  it('refuses relative, schemeless and non-http receivers, naming the field', async () => {
    await expect(checkJobWebhook('hooks.example.com/x', open)).rejects.toThrow(
      /^webhook: must be an absolute/,
    );
    await expect(checkJobWebhook({ url: 'ftp://hooks.example.com/x' }, open)).rejects.toThrow(
      /^webhook\.url: must be an absolute/,
    );
  });

  it('refuses metadata over the limit', async () => {
    const metadata = { blob: 'x'.repeat(MAX_WEBHOOK_METADATA_BYTES) };
    await expect(checkJobWebhook({ url: 'http://127.0.0.1:9/', metadata }, open)).rejects.toThrow(
      /webhook\.metadata: at most 16384 bytes/,
    );
  });

  it('refuses a private receiver under the default address policy', async () => {
    await expect(
      checkJobWebhook('http://127.0.0.1:9/hook', { allowPrivateTargets: false, targetDnsTimeoutMs: 3_000 }),
    ).rejects.toMatchObject({ code: 'TARGET_FORBIDDEN' });
  });
});
