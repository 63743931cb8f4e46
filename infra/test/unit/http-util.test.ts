import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BodyTooLarge, ClientAborted, readBody } from '../../local/http-util';

/** What the server's readBody made of each request, in order. */
const outcomes: Promise<string>[] = [];
let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((request, response) => {
    // `/late`: read only once the client has hung up (as the API server reads after authorizing).
    const read =
      request.url === '/late'
        ? new Promise((resolve) => request.socket.once('close', resolve)).then(() => readBody(request, 16))
        : readBody(request, 16);
    const outcome = read.then(
      (body) => `body ${body.toString()}`,
      (error: unknown) =>
        error instanceof ClientAborted
          ? 'aborted'
          : error instanceof BodyTooLarge
            ? 'too large'
            : String(error),
    );
    outcomes.push(outcome);
    void outcome.then(() => response.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Sends a request's head and `sent` of its declared `length` bytes, then waits or hangs up. */
function request(length: number, sent: string, hangUp: boolean, path = '/'): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: local\r\nContent-Length: ${length}\r\n\r\n${sent}`);
      if (hangUp) setTimeout(() => socket.destroy(), 50);
    });
    socket.on('data', () => socket.destroy());
    socket.on('close', () => resolve());
  });
}

describe('reading a request body', () => {
  it('answers the whole body, refuses one over the limit, and tells a client that hung up before its body was read', async () => {
    await request(5, 'hello', false);
    await request(20, 'x'.repeat(20), false);
    await request(10, '01234', true);
    // Whole, but the client hung up before it was read: the client went away all the same.
    await request(5, 'hello', true, '/late');
    expect(await Promise.all(outcomes)).toEqual(['body hello', 'too large', 'aborted', 'aborted']);
  });
});
