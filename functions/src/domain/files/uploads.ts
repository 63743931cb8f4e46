import { randomUUID } from 'node:crypto';
import { notFound, validationError } from '../errors';
import type { FilePorts, UploadForm } from './ports';

/**
 * Files go from the browser straight to storage: the API hands out a form for one staging key
 * (the store's policy fixes the key, the size range, the content type and a short expiry), the
 * browser posts the file there, and the API checks the staged object before anything is visible.
 * Request bodies never carry the file, so the API's payload limits do not limit files.
 */

export const UPLOAD_NOT_FOUND =
  'This upload does not exist (it may have expired). Please upload the file again.';

/** What one kind of upload allows, and the texts that refuse a file. */
export interface UploadRules<Judged> {
  /** Content types a browser may declare. */
  contentTypes: readonly string[];
  maxBytes: number;
  /** Lifetime of the upload form. */
  expiresInSeconds: number;
  /** Refuses a file of another type, an empty one, and content the judge does not accept. */
  invalidTypeText: string;
  tooLargeText: string;
  /** Judges the content by itself, never by a name or a declared type; undefined refuses it. */
  judge: (bytes: Uint8Array) => Judged | undefined;
}

/** What the browser needs to upload: the form, the key to name when committing, its lifetime. */
export interface StagedUpload extends UploadForm {
  key: string;
  expiresIn: number;
}

/** A form for one new staging key in `folder`, for a file of this declared type and size. */
export async function createStagedUpload(
  deps: FilePorts,
  folder: string,
  file: { contentType: string; size: number },
  rules: Pick<
    UploadRules<unknown>,
    'contentTypes' | 'maxBytes' | 'expiresInSeconds' | 'invalidTypeText' | 'tooLargeText'
  >,
): Promise<StagedUpload> {
  if (!rules.contentTypes.includes(file.contentType) || file.size < 1) {
    throw validationError(rules.invalidTypeText);
  }
  if (file.size > rules.maxBytes) throw validationError(rules.tooLargeText);
  const key = `${folder}${randomUUID()}`;
  const form = await deps.files.uploadForm(key, {
    contentType: file.contentType,
    minBytes: 1,
    maxBytes: rules.maxBytes,
    expiresInSeconds: rules.expiresInSeconds,
  });
  return { ...form, key, expiresIn: rules.expiresInSeconds };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `key` is a staging key this API handed out for `folder` (no other folder, no sub-folder). */
export const isStagedKey = (folder: string, key: string) =>
  key.startsWith(folder) && UUID.test(key.slice(folder.length));

/**
 * The content of a staged upload once it passes the checks: it exists, is at most `maxBytes` and the
 * judge accepts it. A refused upload is deleted at once. Any key other than one of `folder`'s staging
 * keys is answered exactly like an upload that does not exist. The checked bytes are returned, so the
 * caller stores exactly what was judged (the form stays usable until it expires; a re-upload to the
 * same key after the check changes nothing).
 */
export async function checkStagedUpload<Judged>(
  deps: FilePorts,
  folder: string,
  key: string,
  rules: UploadRules<Judged>,
): Promise<{ bytes: Uint8Array; judged: Judged }> {
  if (!isStagedKey(folder, key)) throw notFound(UPLOAD_NOT_FOUND);
  const bytes = await deps.files.read(key, { maxBytes: rules.maxBytes });
  if (!bytes) throw notFound(UPLOAD_NOT_FOUND);
  const refuse = async (text: string) => {
    await deps.files.delete(key);
    return validationError(text);
  };
  if (bytes.length > rules.maxBytes) throw await refuse(rules.tooLargeText);
  const judged = bytes.length === 0 ? undefined : rules.judge(bytes);
  if (judged === undefined) throw await refuse(rules.invalidTypeText);
  return { bytes, judged };
}
