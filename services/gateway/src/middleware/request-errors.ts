import {
  ForbiddenError,
  InvalidJsonError,
  NotFoundError,
  PayloadTooLargeError,
  ServiceError,
  UnsupportedContentTypeError,
  ValidationError,
} from '@wcs/errors';
import { invalidUtf8Message } from '../validation/well-formed-text';
import { INVALID_UTF8 } from './json-body.middleware';

/** The fields body-parser (http-errors) and the router put on what they throw. */
interface HttpLikeError {
  type?: unknown;
  status?: unknown;
  statusCode?: unknown;
  code?: unknown;
  message?: unknown;
  offset?: unknown;
}

const SUPPORTED_ENCODINGS = 'identity, gzip, deflate or br';

function statusOf(e: HttpLikeError): number | undefined {
  const s = typeof e.status === 'number' ? e.status : e.statusCode;
  return typeof s === 'number' && Number.isInteger(s) ? s : undefined;
}

/**
 * Errors raised before our handlers run (reading, inflating and parsing the body; decoding the
 * path) are client mistakes: map them to our kinds so they answer 4xx with a code, never 500.
 * Returns null for anything else (then `toServiceError` decides).
 */
export function fromRequestError(err: unknown): ServiceError | null {
  if (typeof err !== 'object' || err === null || err instanceof ServiceError) return null;
  const e = err as HttpLikeError;
  const message = typeof e.message === 'string' ? e.message.slice(0, 200) : '';
  switch (e.type) {
    case 'entity.parse.failed':
      return new InvalidJsonError();
    case 'entity.too.large':
      return new PayloadTooLargeError();
    case 'encoding.unsupported':
      return new UnsupportedContentTypeError(
        `Unsupported Content-Encoding (${message}); send the body as ${SUPPORTED_ENCODINGS}`,
      );
    case 'charset.unsupported':
      return new UnsupportedContentTypeError(`Unsupported request charset (${message}); send UTF-8 JSON`);
    case 'request.size.invalid':
      return new InvalidJsonError('Request body length does not match its Content-Length header');
    case 'request.aborted':
      return new InvalidJsonError('Request body was cut off before its end');
    case INVALID_UTF8: {
      const offset = typeof e.offset === 'number' ? e.offset : 0;
      return new ValidationError(invalidUtf8Message(offset), { details: { field: 'body', offset } });
    }
  }
  const status = statusOf(e);
  if (status === undefined || status < 400 || status > 499) return null;
  // The router's decodeURIComponent of a path parameter (`/v1/crawl/%E0%A4%A`).
  if (err instanceof URIError) {
    return new ValidationError('Malformed percent-encoding in the request path');
  }
  // zlib/brotli errors that body-parser marks 400: the body is not what Content-Encoding says.
  if (typeof e.code === 'string' && (/^Z_/.test(e.code) || /^ERR_?_ERROR_FORMAT|BROTLI/i.test(e.code))) {
    return new InvalidJsonError(
      `Request body could not be decompressed as its Content-Encoding declares (${message})`,
    );
  }
  if (status === 413) return new PayloadTooLargeError();
  if (status === 415) return new UnsupportedContentTypeError(message || 'Unsupported media type');
  if (status === 404) return new NotFoundError(message || 'Not found');
  if (status === 403) return new ForbiddenError(message || 'Forbidden');
  // Any other client error raised by the HTTP stack (it marks them with a 4xx status).
  return new ValidationError(message || 'Bad request');
}
