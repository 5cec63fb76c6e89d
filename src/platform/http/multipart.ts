import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { InvalidInput, PayloadTooLarge } from '../errors.ts';
import { UploadedFile } from '../lib/uploaded-file.ts';

export const MAX_UPLOAD_BYTES = 25 * 1024 * 1024;
const MAX_FILES = 10;

/** The parts of a multipart/form-data body: text fields and files by part name. */
export class MultipartBody {
  readonly fields: Record<string, string> = {};
  readonly files: Record<string, UploadedFile> = {};
}

/** Accept multipart/form-data everywhere; parts are read on demand by `readMultipart` (after authentication). */
export function registerMultipart(app: FastifyInstance) {
  return app.register(fastifyMultipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: MAX_UPLOAD_BYTES, files: MAX_FILES, fields: 50, fieldSize: 1024 * 1024, parts: 60 },
  });
}

/**
 * Reads every part of a multipart request. Each name may appear once; a file over 25 MB is PayloadTooLarge
 * (v1 400, legacy 413); a malformed body is InvalidInput.
 */
export async function readMultipart(request: FastifyRequest): Promise<MultipartBody> {
  checkBoundary(request.headers['content-type']);
  const body = new MultipartBody();
  const seen = new Set<string>();
  try {
    for await (const part of request.parts()) {
      if (seen.has(part.fieldname)) throw InvalidInput.field(part.fieldname, 'must be given once');
      seen.add(part.fieldname);
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        body.files[part.fieldname] = new UploadedFile(part.filename || null, part.mimetype || null, bytes);
      } else {
        body.fields[part.fieldname] = String(part.value);
      }
    }
  } catch (err) {
    throw multipartError(err);
  }
  return body;
}

/** RFC 2046 allows boundaries of 1 to 70 characters; the parser cannot search for one longer than MAX_BOUNDARY. */
const MAX_BOUNDARY = 200;

function checkBoundary(contentType: string | undefined): void {
  const m = /;\s*boundary=(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '');
  const boundary = m ? (m[1] ?? m[2] ?? '') : '';
  if (!boundary) throw new InvalidInput('malformed multipart body: the Content-Type header names no boundary');
  if (boundary.length > MAX_BOUNDARY) {
    throw new InvalidInput(
      `malformed multipart body: the boundary is ${boundary.length} characters long; at most ${MAX_BOUNDARY} are accepted (RFC 2046 allows 70)`,
    );
  }
}

function multipartError(err: unknown): unknown {
  if (err instanceof InvalidInput) return err;
  const e = err as { statusCode?: number; code?: string; message?: string };
  if (e.code === 'FST_REQ_FILE_TOO_LARGE' || e.statusCode === 413) {
    return new PayloadTooLarge(`file is larger than the ${MAX_UPLOAD_BYTES / 1024 / 1024} MB upload limit`);
  }
  if (e.code === 'FST_FILES_LIMIT') return new InvalidInput(`at most ${MAX_FILES} files per request`);
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) return new InvalidInput(`malformed multipart body: ${e.message}`);
  if (e.message && /multipart|boundary|Unexpected end of form/i.test(e.message)) return new InvalidInput(`malformed multipart body: ${e.message}`);
  return err;
}
