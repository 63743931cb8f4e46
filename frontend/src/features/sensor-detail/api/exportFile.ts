import type { ExportKind } from '@argentum/contracts';
import type { ExportRequestBody } from '@argentum/contracts/requests';
import { callApi } from '../../../shared/api/client';

export interface ExportArgs {
  kind: ExportKind;
  format: string;
  devID: string;
  startDate: number;
  endDate: number;
}

/** Progress of a download: bytes so far and, when the server said, of how many. */
export type ExportProgress =
  { phase: 'preparing' } | { phase: 'downloading'; received: number; total: number | null };

function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Long enough for the browser to have taken the file.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

function decodeBase64(data: string): Uint8Array<ArrayBuffer> {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** Reads a storage link with progress (the link is short-lived and signed: no credentials go with it). */
async function download(url: string, onProgress: (p: ExportProgress) => void): Promise<Blob> {
  const response = await fetch(url, { credentials: 'omit' });
  if (!response.ok || !response.body) throw new Error(`Download failed (${response.status})`);
  const length = Number(response.headers.get('content-length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const reader = response.body.getReader();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  onProgress({ phase: 'downloading', received, total });
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.byteLength;
    onProgress({ phase: 'downloading', received, total });
  }
  return new Blob(chunks, { type: response.headers.get('content-type') ?? 'application/octet-stream' });
}

/**
 * Asks the server to build the file, then saves it: inline when small, else downloaded from the
 * storage link the server answers. Answers the file name.
 */
export async function exportFile(args: ExportArgs, onProgress: (p: ExportProgress) => void): Promise<string> {
  onProgress({ phase: 'preparing' });
  const answer = await callApi('createExport', {
    kind: args.kind,
    format: args.format,
    devID: args.devID,
    cusDate: { startDate: args.startDate, endDate: args.endDate, key: 'selection' },
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
  } satisfies ExportRequestBody<'createExport'>);
  let blob: Blob;
  if (answer.url) blob = await download(answer.url, onProgress);
  else if (answer.encoding === 'base64')
    blob = new Blob([decodeBase64(answer.data ?? '')], { type: answer.contentType });
  else blob = new Blob([answer.data ?? ''], { type: answer.contentType });
  saveBlob(blob, answer.fileName);
  return answer.fileName;
}
