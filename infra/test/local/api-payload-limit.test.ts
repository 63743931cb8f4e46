import { describe, expect, it } from 'vitest';
import {
  MAX_LAMBDA_PAYLOAD_BYTES,
  MAX_REQUEST_LINE_AND_HEADER_BYTES,
  oversizedPayload,
  requestLineAndHeaderBytes,
} from '../../local/api-server';

/**
 * The local API refuses what Lambda refuses: an event or a response over 6 MB as JSON fails the
 * invocation on AWS, so it fails here too, however the body is encoded.
 */
describe('the Lambda payload limit of the local API', () => {
  const response = (body: string) => ({ statusCode: 200, headers: { 'content-type': 'text/plain' }, body });

  it('passes a response up to 6 MB as Lambda counts it', () => {
    expect(oversizedPayload(response('{}'))).toBeUndefined();
    expect(oversizedPayload(response('a'.repeat(MAX_LAMBDA_PAYLOAD_BYTES - 200)))).toBeUndefined();
  });

  it('refuses one past it, counting what JSON escapes and UTF-8 takes', () => {
    expect(oversizedPayload(response('a'.repeat(MAX_LAMBDA_PAYLOAD_BYTES)))).toBeGreaterThan(
      MAX_LAMBDA_PAYLOAD_BYTES,
    );
    // 3.5 million quotes are 3.5 MB of body and 7 MB of JSON; 2.5 million "é" are 5 MB of UTF-8.
    expect(oversizedPayload(response('"'.repeat(3_500_000)))).toBeGreaterThan(7_000_000);
    expect(oversizedPayload(response('\u0001'.repeat(1_100_000)))).toBeGreaterThan(6_600_000);
    expect(oversizedPayload(response('é'.repeat(2_500_000)))).toBeUndefined();
    expect(oversizedPayload(response('é'.repeat(3_200_000)))).toBeGreaterThan(MAX_LAMBDA_PAYLOAD_BYTES);
  });

  it('counts a base64 body (a gzip answer) as it is, the rest of the response with it', () => {
    const base64 = (length: number) => ({ ...response('A'.repeat(length)), isBase64Encoded: true });
    expect(oversizedPayload(base64(MAX_LAMBDA_PAYLOAD_BYTES - 200))).toBeUndefined();
    const over = oversizedPayload(base64(MAX_LAMBDA_PAYLOAD_BYTES - 50));
    expect(over).toBe(Buffer.byteLength(JSON.stringify(base64(MAX_LAMBDA_PAYLOAD_BYTES - 50))));
  });
});

/** API Gateway's quota on a request's line and header values, counted as AWS words it. */
describe('the request line and header limit of the local API', () => {
  const request = (url: string, rawHeaders: string[]) => ({
    method: 'POST',
    url,
    httpVersion: '1.1',
    rawHeaders,
  });

  it('counts the request line and the header values, not the header names', () => {
    // 'POST /api/x HTTP/1.1' is 20 bytes; 'a=1' and 'b' are 4.
    expect(requestLineAndHeaderBytes(request('/api/x', ['Cookie', 'a=1', 'X-Long-Header-Name', 'b']))).toBe(
      24,
    );
  });

  it('puts the limit at 10,240 bytes', () => {
    const line = 'POST /api/x HTTP/1.1'.length;
    const at = request('/api/x', ['cookie', 'c'.repeat(MAX_REQUEST_LINE_AND_HEADER_BYTES - line)]);
    expect(requestLineAndHeaderBytes(at)).toBe(MAX_REQUEST_LINE_AND_HEADER_BYTES);
    const over = request('/api/x?q=1', ['cookie', 'c'.repeat(MAX_REQUEST_LINE_AND_HEADER_BYTES - line)]);
    expect(requestLineAndHeaderBytes(over)).toBeGreaterThan(MAX_REQUEST_LINE_AND_HEADER_BYTES);
  });
});
