import { ApiError } from './client';

/** A presigned form: post every field, then the file last, to `url` (the storage, not the API). */
export interface UploadForm {
  url: string;
  fields: Record<string, string>;
}

/** The error code of a storage error answer (S3's XML `<Code>`), such as EntityTooLarge. */
const storageErrorCode = (body: string) => /<Code>([^<]{1,100})<\/Code>/.exec(body)?.[1];

/**
 * Posts a file straight to storage with a presigned form, reporting the share sent so far (0 to 1).
 * Fails with an ApiError carrying the storage's status and error code (status 0: not reachable).
 */
export function postFile(form: UploadForm, file: Blob, onProgress?: (sent: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const body = new FormData();
    for (const [name, value] of Object.entries(form.fields)) body.append(name, value);
    // Storage ignores every field after the file.
    body.append('file', file);
    const request = new XMLHttpRequest();
    request.open('POST', form.url);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    request.onload = () => {
      if (request.status >= 200 && request.status < 300) return resolve();
      const code = storageErrorCode(request.responseText);
      reject(new ApiError(request.status, code ?? `Upload failed (${request.status})`, request.responseText));
    };
    request.onerror = () => reject(new ApiError(0, 'The upload could not reach the storage'));
    request.onabort = () => reject(new DOMException('The upload was aborted', 'AbortError'));
    request.send(body);
  });
}
