import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { vendorRequest, withVendorDeadline } from '../../../src/adapters/vendors/http';
import { createRyseAdapter } from '../../../src/adapters/vendors/ryse';
import { DomainError } from '../../../src/domain/errors';
import { ryseMoved, ryseShade } from './fixtures';
import { jsonReply, memorySecrets, scriptedFetch } from './support';

function ryse(secret: Record<string, unknown>, ...replies: Parameters<typeof scriptedFetch>) {
  const { fetch, requests } = scriptedFetch(...replies);
  const adapter = createRyseAdapter({
    fetch,
    secrets: memorySecrets({ 'ryse-secret': secret }).store,
    secretId: 'ryse-secret',
    timeoutMs: 200,
  });
  return { adapter, requests };
}
const secret = { token: 'bridge-token', bridgeUrl: 'https://bridge.example.com/' };

const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DomainError);
  const { kind, message } = error as DomainError;
  return { kind, message };
};

describe('Ryse adapter (SmartBridge REST)', () => {
  it("reads a shade's position with the bridge token", async () => {
    const { adapter, requests } = ryse(secret, jsonReply(200, ryseShade));
    await expect(adapter.getPosition('shade-1')).resolves.toBe(40);
    expect(requests).toEqual([
      {
        method: 'GET',
        url: 'https://bridge.example.com/v1/shades/shade-1',
        headers: { authorization: 'Bearer bridge-token' },
        body: undefined,
        bounded: true,
      },
    ]);
  });

  it('moves a shade with PUT .../position {position} and answers the accepted position', async () => {
    const { adapter, requests } = ryse(secret, jsonReply(200, ryseMoved));
    await expect(adapter.setPosition('shade-1', 75)).resolves.toBe(75);
    expect(requests).toEqual([
      {
        method: 'PUT',
        url: 'https://bridge.example.com/v1/shades/shade-1/position',
        headers: { authorization: 'Bearer bridge-token', 'content-type': 'application/json' },
        body: '{"position":75}',
        bounded: true,
      },
    ]);
  });

  it('maps a refused token, an unknown shade, a 5xx, a timeout and a missing bridge URL to clear errors', async () => {
    expect(
      (await failure(ryse(secret, jsonReply(401, { error: 'unauthorized' })).adapter.getPosition('s')))
        .message,
    ).toBe('Ryse is not connected to the platform. Please ask an administrator to reconnect it.');
    expect(
      (await failure(ryse(secret, jsonReply(404, { error: 'not_found' })).adapter.getPosition('s'))).message,
    ).toBe('Ryse does not know this device. Please check its link.');
    expect(await failure(ryse(secret, jsonReply(500, {})).adapter.getPosition('s'))).toEqual({
      kind: 'upstream',
      message: 'Ryse is not responding, please try again.',
    });
    expect(await failure(ryse(secret, 'hang').adapter.setPosition('s', 3))).toEqual({
      kind: 'upstream-timeout',
      message: 'Ryse is not responding, please try again.',
    });
    const noBridge = ryse({ token: 'bridge-token' });
    expect((await failure(noBridge.adapter.getPosition('s'))).kind).toBe('upstream');
    expect(noBridge.requests).toEqual([]);
  });
});

describe('vendor requests: hard limits', () => {
  it('end within the hard timeout when the server accepts and never answers, or answers headers but no body', async () => {
    const server = createServer((request, response) => {
      if (request.url === '/headers-only')
        response.writeHead(200, { 'content-type': 'application/json' }).write('{');
      // Otherwise: never answer.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const path of ['/silent', '/headers-only']) {
        const started = Date.now();
        const error = await vendorRequest(
          { vendor: 'nest', fetch: (input, init) => fetch(input, init), timeoutMs: 300 },
          `http://127.0.0.1:${port}${path}`,
          { method: 'GET' },
        ).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(DomainError);
        expect((error as DomainError).kind).toBe('upstream-timeout');
        expect(Date.now() - started).toBeLessThan(2000);
      }
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("end by the call's deadline when it comes before their own timeout", async () => {
    const { fetch } = scriptedFetch('hang');
    const started = Date.now();
    const error = await withVendorDeadline(Date.now() + 150, () =>
      vendorRequest({ vendor: 'ryse', fetch, timeoutMs: 5000 }, 'https://bridge.example.com/v1/shades/s', {
        method: 'GET',
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('upstream-timeout');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('answers "not responding" at once when nothing listens', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const error = await vendorRequest(
      { vendor: 'ecobee', fetch: (input, init) => fetch(input, init), timeoutMs: 5000 },
      `http://127.0.0.1:${port}/`,
      { method: 'GET' },
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).kind).toBe('upstream');
  });
});
