import { Agent, request } from 'node:http';
import { gunzipSync } from 'node:zlib';

/**
 * The benches' HTTP client for load: node:http on a keep-alive agent, as the AWS SDK's own handler
 * sends the floor's GetItems, so both sides of a ratio are generated alike. `fetch` (undici behind
 * WHATWG streams) cost ~0.4 ms of this process's CPU per request, in the process that also runs the
 * API server: the load generator was a large part of what was measured.
 */
export interface LeanResponse {
  status: number;
  /** The body's bytes, kept only when asked for (`keepBody`); otherwise read to the end and dropped. */
  body?: Buffer;
  bytes: number;
  /** The answer's Content-Encoding, when it has one. */
  encoding?: string;
}

/** The text of a kept body, inflated when it came gzip. */
export function decodedBody(response: LeanResponse): string {
  const body = response.body ?? Buffer.alloc(0);
  if (response.encoding === undefined) return body.toString('utf8');
  if (response.encoding === 'gzip') return gunzipSync(body).toString('utf8');
  throw new Error(`an answer in ${response.encoding}, which was not asked for`);
}

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

/** POSTs `body` (JSON) to `url`, reading the answer to its end. */
export const postJson = (url: string, body: string, headers: Record<string, string> = {}, keepBody = false) =>
  send('POST', url, { 'content-type': 'application/json', ...headers }, body, keepBody);

/** Sends one request on the keep-alive agent, reading the answer to its end. */
export function send(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  keepBody = false,
): Promise<LeanResponse> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        host: target.hostname,
        port: target.port,
        path: target.pathname + target.search,
        method,
        headers:
          body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (keepBody) chunks.push(chunk);
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            bytes,
            body: keepBody ? Buffer.concat(chunks) : undefined,
            encoding: res.headers['content-encoding'],
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
