/** Service errors of the browser engine: caps, crashes, Chromium's net::ERR_* codes. */
import {
  DnsResolutionError,
  ServiceError,
  TargetForbiddenError,
  TargetTooLargeError,
  TargetUnreachableError,
  TimeoutError,
  TlsError,
  TooManyRedirectsError,
  UnsupportedContentTypeError,
} from '@wcs/errors';
import { mapNetworkError } from '@wcs/net';
import type { CapExceeded } from './browser-byte-meter';
import type { GuardedProxy } from './browser-proxy';

export function renderedTooLarge(maxBodyBytes: number): TargetTooLargeError {
  return new TargetTooLargeError(`Rendered page exceeds the ${maxBodyBytes} byte limit`, {
    details: { maxBodyBytes },
  });
}

export function tooLargeError(hit: CapExceeded): TargetTooLargeError {
  const what = hit.kind === 'response' ? 'A response' : 'The page (all responses together)';
  return new TargetTooLargeError(`${what} passed the ${hit.limit} byte limit while loading`, {
    details: {
      [hit.kind === 'response' ? 'maxBodyBytes' : 'maxPageBytes']: hit.limit,
      ...(hit.url ? { url: hit.url } : {}),
    },
  });
}

export function asServiceError(err: unknown, url: string): ServiceError {
  if (err instanceof ServiceError) return err;
  return new TargetForbiddenError(`Request to ${url} refused`, { cause: err });
}

/** Chromium's net::ERR_* codes and Playwright errors → service errors. */
export function mapBrowserError(err: unknown, url: string): ServiceError {
  if (err instanceof ServiceError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  const o = { cause: err, details: { url } };
  const net = /net::(ERR_[A-Z_]+)/.exec(msg)?.[1];
  if ((err instanceof Error && err.name === 'TimeoutError') || net === 'ERR_TIMED_OUT') {
    return new TimeoutError(`Browser timed out loading ${url}`, o);
  }
  if (/Download is starting/i.test(msg)) {
    return new UnsupportedContentTypeError(`Unsupported content type: ${url} is a download`, o);
  }
  if (net === 'ERR_NAME_NOT_RESOLVED' || net === 'ERR_NAME_RESOLUTION_FAILED') {
    return new DnsResolutionError(`Could not resolve host of ${url}`, o);
  }
  if (net?.startsWith('ERR_CERT_') || net?.startsWith('ERR_SSL_'))
    return new TlsError(`TLS error loading ${url}`, o);
  if (net === 'ERR_TOO_MANY_REDIRECTS')
    return new TooManyRedirectsError(`Too many redirects loading ${url}`, o);
  return new TargetUnreachableError(`Browser could not load ${url}: ${net ?? msg.split('\n')[0]}`, o);
}

/**
 * A refusal or failure of the guarded proxy as the matching service error: from the code it put on
 * its error answer, else from the last failure it recorded since `since` (Chromium only says
 * "tunnel failed" for proxied HTTPS). undefined when the proxy has nothing to say.
 */
export async function proxyFailure(
  proxy: Promise<GuardedProxy> | undefined,
  code: string | undefined,
  url: string,
  since: number,
): Promise<ServiceError | undefined> {
  let failure = code;
  let host = new URL(url).hostname;
  if (!failure) {
    const last = (await proxy)?.lastFailureSince(since);
    if (!last) return undefined;
    failure = last.code;
    host = last.host;
  }
  if (failure === 'FORBIDDEN') {
    return new TargetForbiddenError(`Target host ${host} is a private or reserved address`, {
      details: { host },
    });
  }
  return mapNetworkError(Object.assign(new Error(failure), { code: failure }), host);
}
