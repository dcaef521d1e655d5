export type { Dispatcher } from 'undici';
export { ADDRESS_CACHE_MAX_HOSTS, ADDRESS_CACHE_TTL_MS, AddressCache } from './address-cache';
export {
  type AddressPolicy,
  assertAllowedUrl,
  bareHost,
  checkUrl,
  createGuardedAgent,
  createSafeDispatcher,
  createSafeLookup,
  isForbiddenAddress,
  parseTargetUrl,
} from './address-policy';
export { type DecodedBody, decodeBody } from './charset';
export {
  binarySignature,
  DOCUMENT_SNIFF_BYTES,
  DOCX_MEDIA_TYPE,
  type DocumentKind,
  documentMediaType,
  isBinaryDataByte,
  mayBeDocument,
  PDF_MEDIA_TYPE,
  SNIFF_WINDOW_BYTES,
  type SniffedContent,
  sniffBinary,
  sniffContent,
  sniffDocument,
} from './content-sniff';
export { CREDENTIAL_HEADERS, type HeadersScope } from './hop-headers';
export {
  BLOCK_STATUSES,
  HTML_TYPES,
  isHtmlMediaType,
  isTextMediaType,
  mimeTypeOf,
  REDIRECT_STATUSES,
  TEXT_TYPES,
} from './http-constants';
export {
  DEFAULT_MAX_REDIRECTS,
  DEFAULT_USER_AGENT,
  type OpenedResponse,
  type OpenOptions,
  openUrl,
  type ReadBodyOptions,
  type RequestOptions,
  readBody,
} from './http-request';
export { abortReason, describeError, mapNetworkError } from './network-errors';
export { createProxyDispatcher, type ProxyDispatcherOptions, ProxyDispatchers } from './proxy-dispatcher';
export { openCheckedTunnel, openTunnel, resolveAllowedTarget, type TunnelOptions } from './proxy-tunnel';
export {
  type ProxyEndpoint,
  type ProxyScheme,
  parseProxyList,
  parseProxyUrl,
  redactProxyUrl,
} from './proxy-url';
export { type LookupAll, type PrecheckOutcome, precheckTarget } from './target-precheck';
