import { TargetHttpError, TimeoutError, ValidationError } from './service-error';
import { decodeError, encodeError, toServiceError } from './wire';

describe('error wire format', () => {
  it('round-trips code, status, retryable and details through a string', () => {
    const back = decodeError(encodeError(new TargetHttpError(404)));
    expect(back).toMatchObject({ code: 'TARGET_HTTP_ERROR', status: 502, retryable: false });
    expect(back.details).toEqual({ statusCode: 404 });
    expect(decodeError(encodeError(new TimeoutError()))).toMatchObject({
      code: 'TIMEOUT',
      status: 504,
      retryable: true,
    });
  });

  it('turns foreign strings and malformed payloads into INTERNAL without throwing', () => {
    expect(decodeError('socket hang up')).toMatchObject({ code: 'INTERNAL', status: 500 });
    expect(decodeError('WCS_ERROR:{not json')).toMatchObject({ code: 'INTERNAL' });
    expect(decodeError(undefined)).toMatchObject({ code: 'INTERNAL' });
  });

  it('wraps unknown throwables as INTERNAL and keeps ServiceErrors as they are', () => {
    const v = new ValidationError('url: required');
    expect(toServiceError(v)).toBe(v);
    expect(toServiceError(new Error('boom'))).toMatchObject({ code: 'INTERNAL', message: 'boom' });
    expect(toServiceError('weird')).toMatchObject({ code: 'INTERNAL' });
  });
});
