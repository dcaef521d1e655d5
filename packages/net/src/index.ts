export type { Dispatcher } from 'undici';
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
  isBinaryDataByte,
  SNIFF_WINDOW_BYTES,
  type SniffedContent,
  sniffBinary,
  sniffContent,
} from './content-sniff';
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
