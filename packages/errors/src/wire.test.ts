import * as exported from './index';
import {
  ActionFailedError,
  ConflictError,
  ContentProcessingError,
  DnsResolutionError,
  DocumentUnreadableError,
  ExtractionFailedError,
  ForbiddenError,
  InsufficientCreditsError,
  InternalError,
  InvalidJsonError,
  InvalidUrlError,
  KeyBudgetExceededError,
  ModelNotConfiguredError,
  NotFoundError,
  NotSupportedError,
  PayloadTooLargeError,
  RateLimitedError,
  RequestTimeoutError,
  SearchProviderError,
  SelectorTooExpensiveError,
  ServiceError,
  ServiceUnavailableError,
  TargetBlockedError,
  TargetForbiddenError,
  TargetHttpError,
  TargetTooLargeError,
  TargetUnreachableError,
  TimeoutError,
  TlsError,
  TooManyRedirectsError,
  UnauthorizedError,
  UnsupportedContentTypeError,
  ValidationError,
} from './service-error';
import { decodeError, ERROR_KINDS, encodeError, toServiceError } from './wire';

/** One instance of every kind, with non-default messages and details where the kind allows them. */
const samples: ServiceError[] = [
  new InvalidJsonError(),
  new DocumentUnreadableError('encrypted', 'The PDF is password-protected'),
  new NotSupportedError('Firecrawl v2 agent is not supported by this service', {
    details: { endpoint: 'agent' },
  }),
  new ValidationError('url: required', { details: { unrecognized: ['onlyMaincontent'] } }),
  new InvalidUrlError('Not a URL: "ht tp://x"'),
  new UnauthorizedError(),
  new InsufficientCreditsError('Need 10 credits, have 3', { details: { needed: 10, balance: 3 } }),
  new KeyBudgetExceededError("This API key's daily credit limit (10) would be passed", {
    details: { period: 'day', limit: 10, spent: 9, required: 5, resetsAt: '2026-12-06T00:00:00.000Z' },
  }),
  new ForbiddenError(),
  new ConflictError('the last active key cannot be revoked'),
  new NotFoundError('Crawl not found'),
  new PayloadTooLargeError(),
  new RateLimitedError(17),
  new RequestTimeoutError(),
  new TargetForbiddenError('127.0.0.1 is a private address'),
  new DnsResolutionError('nope.invalid does not resolve'),
  new TargetUnreachableError('Connection refused by example.com'),
  new TlsError('certificate has expired'),
  new TargetBlockedError('Captcha wall at example.com'),
  new TargetHttpError(404, undefined, { details: { url: 'https://example.com/missing' } }),
  new TooManyRedirectsError('More than 10 redirects'),
  new UnsupportedContentTypeError('image/png is not a page'),
  new TargetTooLargeError('Body exceeds 10485760 bytes'),
  new TimeoutError('Scrape did not finish within 1000 ms; retry'),
  new ActionFailedError('Action 2 (click "#more") failed: no element matches', {
    details: { action: 'click', index: 2 },
  }),
  new SelectorTooExpensiveError('includeTags took longer than 5000 ms on https://example.com/', {
    details: { selectorBudgetMs: 5000, field: 'includeTags' },
  }),
  new ServiceUnavailableError(),
  new ContentProcessingError('https://example.com/page'),
  new InternalError(),
  new SearchProviderError('SearXNG at SEARXNG_URL=http://x refused format=json', { retryable: false }),
  new ModelNotConfiguredError('Set ANTHROPIC_API_KEY'),
  new ExtractionFailedError('The model answer stayed invalid', { details: { errors: ['/name: required'] } }),
];

function roundTrip(e: ServiceError): ServiceError {
  return decodeError(encodeError(e));
}

describe('error wire format', () => {
  it('knows every kind this package exports, each under its own code', () => {
    const subclasses = Object.values(exported).filter(
      (v): v is typeof ServiceError => typeof v === 'function' && v.prototype instanceof ServiceError,
    );
    expect(subclasses.length).toBeGreaterThan(20);
    for (const Kind of subclasses)
      expect(ERROR_KINDS.get((Kind as unknown as { code: string }).code)).toBe(Kind);
    expect(ERROR_KINDS.size).toBe(subclasses.length);
    // ...and this test has a sample of each, so a new kind is round-tripped below.
    expect(samples.map((s) => s.constructor).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [...ERROR_KINDS.values()].sort((a, b) => a.name.localeCompare(b.name)),
    );
  });

  it.each(samples.map((e) => [e.constructor.name, e] as const))(
    '%s comes back as the same class with code, status, retryable, details and message',
    (_name, original) => {
      const Kind = original.constructor as typeof ServiceError;
      const back = roundTrip(original);
      expect(back).toBeInstanceOf(Kind);
      expect(back).toBeInstanceOf(ServiceError);
      expect(back).toBeInstanceOf(Error);
      expect(Object.getPrototypeOf(back)).toBe(Kind.prototype);
      expect(back.name).toBe(Kind.name);
      expect(back.code).toBe((Kind as unknown as { code: string }).code);
      expect(back.code).toBe(original.code);
      expect(back.status).toBe(original.status);
      expect(back.retryable).toBe(original.retryable);
      expect(back.message).toBe(original.message);
      expect(back.details).toEqual(original.details);
      expect(back.toJSON()).toEqual(original.toJSON());
      expect(typeof back.stack).toBe('string');
      // A second trip changes nothing.
      expect(encodeError(back)).toBe(encodeError(original));
    },
  );

  it('keeps what the kinds add: TargetHttpError statusCode, RateLimitedError retryAfterSeconds', () => {
    const http = roundTrip(new TargetHttpError(404));
    expect(http).toBeInstanceOf(TargetHttpError);
    expect(http).toMatchObject({ code: 'TARGET_HTTP_ERROR', status: 502, retryable: false });
    expect(http.details).toEqual({ statusCode: 404 });
    const limited = roundTrip(new RateLimitedError(42));
    expect(limited).toBeInstanceOf(RateLimitedError);
    expect((limited as RateLimitedError).retryAfterSeconds).toBe(42);
    expect(roundTrip(new TimeoutError())).toMatchObject({ code: 'TIMEOUT', status: 504, retryable: true });
    // retryable comes from the wire, not from the kind's default.
    expect(roundTrip(new SearchProviderError('down', { retryable: false })).retryable).toBe(false);
    expect(roundTrip(new SearchProviderError('down')).retryable).toBe(true);
  });

  it('keeps whether a failure is billed: the kind says so, the wire keeps the kind', () => {
    const cut = new SelectorTooExpensiveError('cut', {
      details: { selectorBudgetMs: 10, field: 'excludeTags' },
    });
    expect(cut.billed).toBe(true);
    expect(roundTrip(cut).billed).toBe(true);
    expect(exported.notRetryable(cut).billed).toBe(true);
    for (const other of samples.filter((s) => !(s instanceof SelectorTooExpensiveError)))
      expect(roundTrip(other).billed).toBe(false);
  });

  it('decodes a code it does not know (a newer worker) to the base class, keeping every field', () => {
    const wire = `WCS_ERROR:${JSON.stringify({
      code: 'SOMETHING_NEW',
      message: 'A kind from a newer build',
      status: 422,
      retryable: true,
      details: { hint: 'x' },
    })}`;
    const back = decodeError(wire);
    expect(Object.getPrototypeOf(back)).toBe(ServiceError.prototype);
    expect(back).toMatchObject({
      code: 'SOMETHING_NEW',
      message: 'A kind from a newer build',
      status: 422,
      retryable: true,
      details: { hint: 'x' },
    });
    // A ServiceError of any code round-trips as itself too.
    const custom = roundTrip(new ServiceError('CUSTOM', 418, 'teapot'));
    expect(Object.getPrototypeOf(custom)).toBe(ServiceError.prototype);
    expect(custom.toJSON()).toEqual({ code: 'CUSTOM', status: 418, message: 'teapot', retryable: false });
  });

  it('turns foreign strings and malformed payloads into INTERNAL without throwing', () => {
    expect(decodeError('socket hang up')).toMatchObject({ code: 'INTERNAL', status: 500 });
    expect(decodeError('socket hang up')).toBeInstanceOf(InternalError);
    expect(decodeError('WCS_ERROR:{not json')).toMatchObject({ code: 'INTERNAL' });
    expect(decodeError('WCS_ERROR:{"code":1,"message":"x","status":500}')).toMatchObject({
      code: 'INTERNAL',
    });
    expect(decodeError('WCS_ERROR:null')).toMatchObject({ code: 'INTERNAL' });
    expect(decodeError(undefined)).toMatchObject({ code: 'INTERNAL' });
  });

  it('wraps unknown throwables as INTERNAL and keeps ServiceErrors as they are', () => {
    const v = new ValidationError('url: required');
    expect(toServiceError(v)).toBe(v);
    expect(toServiceError(new Error('boom'))).toMatchObject({ code: 'INTERNAL', message: 'boom' });
    expect(toServiceError('weird')).toMatchObject({ code: 'INTERNAL' });
  });
});

describe('notRetryable', () => {
  it('keeps the class, code, status and details, and is not retryable; the original is unchanged', () => {
    const original = new exported.TargetUnreachableError('connection refused', { details: { host: 'h' } });
    const final = exported.notRetryable(original, 'gave up: connection refused');
    expect(final).toBeInstanceOf(exported.TargetUnreachableError);
    expect(final.toJSON()).toEqual({
      code: 'TARGET_UNREACHABLE',
      status: 502,
      message: 'gave up: connection refused',
      retryable: false,
      details: { host: 'h' },
    });
    expect(final.cause).toBe(original);
    expect(original.retryable).toBe(true);
    // without a message: the same message, no cause
    const timeout = exported.notRetryable(new exported.TimeoutError('slow'));
    expect([timeout.code, timeout.message, timeout.retryable, timeout.cause]).toEqual([
      'TIMEOUT',
      'slow',
      false,
      undefined,
    ]);
    expect(exported.decodeError(exported.encodeError(timeout)).retryable).toBe(false);
  });
});
