// A portal form that carries a file (the brand's logo): multipart/form-data read with
// @fastify/multipart, registered only in the scope of the routes that take one, within
// strict bounds: one file, in its named field, at most `maxBytes`; a few short text
// fields. Whatever breaks a bound is read no further and reported as a problem (a pt-BR
// message for the page), never stored: the caller checks CSRF and permission first.
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { App } from '../http/fastify.ts';

export interface UploadSpec {
  /** The one file field accepted (e.g. `logo`). */
  field: string;
  maxBytes: number;
}

export interface UploadedFile {
  /** The type the browser declared: the domain service checks the bytes themselves. */
  tipo: string;
  bytes: Buffer;
}

export interface Upload {
  fields: Record<string, string>;
  /** Absent when the form's file input was left empty. */
  file?: UploadedFile;
  /** Why the upload was refused, in pt-BR; nothing was kept then. */
  problem?: string;
}

const MAX_FIELDS = 16;
const MAX_FIELD_BYTES = 1024;

export const MULTIPART = 'multipart/form-data';

/** Adds multipart parsing to `scope` (an encapsulated scope holding only the upload routes). */
export async function acceptUploads(scope: App, spec: UploadSpec): Promise<void> {
  await scope.register(multipart, {
    limits: {
      files: 1,
      fileSize: spec.maxBytes,
      fields: MAX_FIELDS,
      fieldSize: MAX_FIELD_BYTES,
      parts: MAX_FIELDS + 1,
      headerPairs: 20,
    },
    throwFileSizeLimit: false,
  });
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

/** Reads the whole form within the bounds of `spec`. */
export async function readUpload(request: FastifyRequest, spec: UploadSpec): Promise<Upload> {
  const fields: Record<string, string> = {};
  let file: UploadedFile | undefined;
  let problem: string | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !(part.fieldname in fields)) fields[part.fieldname] = part.value;
        continue;
      }
      const bytes = problem ? undefined : await part.toBuffer();
      if (problem) {
        part.file.resume();
      } else if (part.fieldname !== spec.field) {
        problem = 'O formulário enviou um arquivo num campo que não aceita arquivos.';
      } else if (part.file.truncated) {
        problem = `O arquivo passa de ${kb(spec.maxBytes)}, o limite do logo: reduza a imagem e envie de novo.`;
      } else if (part.filename !== '' || bytes!.length > 0) {
        file = { tipo: part.mimetype, bytes: bytes! };
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    problem =
      code === 'FST_FILES_LIMIT'
        ? 'Envie um arquivo só: o formulário aceita apenas o logo.'
        : code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT'
          ? 'O formulário enviou campos demais.'
          : 'O formulário chegou incompleto ou mal formado: envie de novo.';
  }
  return { fields, ...(file ? { file } : {}), ...(problem ? { problem } : {}) };
}
