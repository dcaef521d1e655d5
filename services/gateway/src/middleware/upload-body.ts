/**
 * The body of POST /v1/parse and /firecrawl/v2/parse: one file, sent either as
 * `multipart/form-data` (a `file` part, plus an `options` JSON part and/or plain fields) or as the
 * raw body (any Content-Type but JSON; options then in the query string). A body labelled
 * `application/x-www-form-urlencoded` is raw bytes too: `curl --data-binary @file` sends that label
 * by default, and a file is never a form. The file is
 * held in memory up to `maxBytes` (MAX_DOCUMENT_BYTES): past it (or when Content-Length says it
 * will be) 413 PAYLOAD_TOO_LARGE at once, the rest of the body read and thrown away meanwhile so the
 * client, still sending, reads the answer. Forms are parsed by @fastify/busboy under limits.
 */
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import { PayloadTooLargeError, UnsupportedContentTypeError, ValidationError } from '@wcs/errors';
import type { Request } from 'express';

export interface UploadedFile {
  bytes: Buffer;
  /** The file name the caller gave (multipart), if any. */
  name?: string;
}

export interface UploadBody {
  file: UploadedFile;
  /** Plain form fields (multipart only); the `options` part among them, as text. */
  fields: Record<string, string>;
}

/** Room for the form's boundaries, part headers and fields beside the file. */
const FORM_OVERHEAD_BYTES = 256 * 1024;
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 64 * 1024;

function tooLarge(maxBytes: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`The file is larger than ${maxBytes} bytes (MAX_DOCUMENT_BYTES)`, {
    details: { maxBytes },
  });
}

/** Answered at once; the rest of the body is read and dropped meanwhile (the client may still be sending). */
function discardRest(req: Request, err: Error): never {
  req.resume();
  throw err;
}

export async function readUpload(req: Request, maxBytes: number): Promise<UploadBody> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (encoding !== 'identity') {
    throw new UnsupportedContentTypeError(
      `Content-Encoding ${encoding} is not supported here; send the file as it is`,
    );
  }
  if (type === 'application/json') {
    throw new UnsupportedContentTypeError(
      'Send the file as multipart/form-data (a "file" part, options in an "options" JSON part) or as the raw body (options in the query string)',
    );
  }
  const multipart = type === 'multipart/form-data';
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + (multipart ? FORM_OVERHEAD_BYTES : 0)) {
    discardRest(req, tooLarge(maxBytes));
  }
  const body = multipart ? await readForm(req, maxBytes) : await readRaw(req, maxBytes);
  if (body.file.bytes.length === 0) {
    throw new ValidationError('file: is empty', { details: { field: 'file' } });
  }
  return body;
}

function readRaw(req: Request, maxBytes: number): Promise<UploadBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= maxBytes) return void chunks.push(chunk);
      req.off('data', onData);
      req.off('end', onEnd);
      req.resume();
      reject(tooLarge(maxBytes));
    };
    const onEnd = () => resolve({ file: { bytes: Buffer.concat(chunks, size) }, fields: {} });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', () => reject(new ValidationError('The request body was cut off before its end')));
    req.on('error', reject);
  });
}

function readForm(req: Request, maxBytes: number): Promise<UploadBody> {
  return new Promise((resolve, reject) => {
    let failure: Error | undefined;
    const fail = (err: Error) => {
      failure ??= err;
    };
    let file: UploadedFile | undefined;
    const fields: Record<string, string> = {};
    let busboy: BusboyInstance;
    try {
      busboy = new Busboy({
        headers: req.headers as { 'content-type': string },
        limits: {
          fileSize: maxBytes,
          files: 1,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: MAX_FIELDS + 1,
        },
      });
    } catch (err) {
      // A multipart type without a boundary.
      reject(new ValidationError(`The multipart body cannot be read: ${(err as Error).message}`));
      return;
    }
    busboy.on('file', (field, stream, filename) => {
      if (field !== 'file') {
        fail(new ValidationError(`${field}: the file goes in a part named "file"`, { details: { field } }));
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('limit', () => fail(tooLarge(maxBytes)));
      stream.on('end', () => {
        if (!stream.truncated)
          file = { bytes: Buffer.concat(chunks), ...(filename ? { name: filename } : {}) };
      });
    });
    busboy.on('field', (name, value, _nameTruncated, valueTruncated) => {
      if (valueTruncated) {
        fail(
          new ValidationError(`${name}: longer than ${MAX_FIELD_BYTES} bytes`, { details: { field: name } }),
        );
        return;
      }
      fields[name] = value;
    });
    busboy.on('filesLimit', () =>
      fail(new ValidationError('file: send one file per request', { details: { field: 'file' } })),
    );
    busboy.on('fieldsLimit', () => fail(new ValidationError(`at most ${MAX_FIELDS} form fields`)));
    busboy.on('partsLimit', () => fail(new ValidationError(`at most ${MAX_FIELDS + 1} form parts`)));
    busboy.on('error', (err: unknown) => {
      const message = err instanceof Error ? err.message : String(err);
      reject(failure ?? new ValidationError(`The multipart body cannot be read: ${message}`));
      req.unpipe(busboy);
      req.resume();
    });
    busboy.on('finish', () => {
      if (failure) return reject(failure);
      if (!file)
        return reject(
          new ValidationError('file: a part named "file" is required', { details: { field: 'file' } }),
        );
      resolve({ file, fields });
    });
    req.on('aborted', () => reject(new ValidationError('The request body was cut off before its end')));
    req.pipe(busboy);
  });
}
