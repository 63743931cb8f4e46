import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { platformTable, telemetryTable } from '../../src/definitions';
import { DEFAULT_DEMO_PASSWORD } from '../../local/demo-data';
import type * as HttpUtil from '../../local/http-util';
import { close, freePort, listen, PortReservation } from '../../local/http-util';
import { type LocalStack, startLocalStack } from '../../local/stack';

/**
 * The stack's ports when stacks start side by side (the test run starts several): a port found free
 * may be taken before its server binds it. Here another process takes it in that moment, every time it
 * can: the stack still starts, on other ports.
 */
const HOST = '127.0.0.1';

/**
 * Servers of "another process", each on a port `freePort` has just found free, taken before its
 * caller can bind it. Each answers anything as DynamoDB Local answers ListTables (and so cognito-local's
 * health check), so a stack that took one for its own emulator would go on with it.
 */
const intruders = vi.hoisted(() => ({ servers: [] as Server[], ports: [] as number[], left: 0 }));
vi.mock('../../local/http-util', async (importOriginal) => {
  const original = await importOriginal<typeof HttpUtil>();
  return {
    ...original,
    freePort: vi.fn(async (host: string) => {
      const port = await original.freePort(host);
      if (intruders.left > 0) {
        intruders.left--;
        const server = createHttpServer((_request, response) =>
          response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end('{"TableNames":[]}'),
        );
        await original.listen(server, port, host);
        intruders.servers.push(server);
        intruders.ports.push(port);
      }
      return port;
    }),
  };
});

const bindable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createNetServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, HOST, () => probe.close(() => resolve(true)));
  });

describe('a port held for a server that starts later', () => {
  it('is bound from the moment it is chosen: nothing else can take it, and its server then serves on it', async () => {
    const held = await PortReservation.hold(HOST);
    expect(await bindable(held.port)).toBe(false);
    const server = createHttpServer((_request, response) => response.end('served'));
    await listen(server, held, HOST);
    expect(await (await fetch(`http://${HOST}:${held.port}/`)).text()).toBe('served');
    expect(() => held.take()).toThrow(/already handed/);
    await close(server);
    expect(await bindable(held.port)).toBe(true);
  });

  it('is refused when a fixed port is taken, and let go when its server never starts', async () => {
    const other = await PortReservation.hold(HOST);
    await expect(PortReservation.hold(HOST, other.port)).rejects.toMatchObject({ code: 'EADDRINUSE' });
    await other.release();
    expect(await bindable(other.port)).toBe(true);
  });
});

describe('a stack whose free ports are taken before its emulators bind them', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'argentum-ports-'));
  const environment = { ...process.env };
  let stack: LocalStack | undefined;
  afterAll(async () => {
    await stack?.stop();
    await Promise.all(intruders.servers.map(close));
    // The stack set this worker's environment as a Lambda's; the shared stack's comes back.
    for (const name of Object.keys(process.env))
      if (!(name in environment)) Reflect.deleteProperty(process.env, name);
    Object.assign(process.env, environment);
    rmSync(dataDir, { recursive: true, force: true });
  }, 200_000);

  it('starts on other ports, each emulator its own', async () => {
    intruders.left = 3;
    stack = await startLocalStack({
      dataDir,
      ports: { app: 0, dynamodb: 0, s3: 0, cognito: 0, mqtt: 0, mqttWs: 0, iotData: 0, ses: 0, sqs: 0 },
      seed: false,
      demoPassword: DEFAULT_DEMO_PASSWORD,
      historyDays: 0,
      simulator: false,
      ephemeral: true,
      presenceSweepMs: 0,
      vendorPollMs: 0,
    });
    // Each port handed out was taken at once (3), and another was found for what had been given one.
    expect(intruders.ports).toHaveLength(3);
    expect(vi.mocked(freePort).mock.calls.length).toBeGreaterThan(3);
    for (const port of Object.values(stack.ports)) expect(intruders.ports).not.toContain(port);

    // The emulators answering are the stack's own: its tables are in its DynamoDB Local, its pool's
    // keys at its cognito-local, its API serves.
    const dynamodb = new DynamoDBClient({
      endpoint: `http://${HOST}:${stack.ports.dynamodb}`,
      region: 'us-east-1',
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const { TableNames } = await dynamodb.send(new ListTablesCommand({}));
    dynamodb.destroy();
    expect(TableNames).toEqual(expect.arrayContaining([platformTable.localName, telemetryTable.localName]));
    const keys = await fetch(`${stack.env.TOKEN_ISSUER}/.well-known/jwks.json`);
    expect(((await keys.json()) as { keys: unknown[] }).keys.length).toBeGreaterThan(0);
    expect((await fetch(`http://${HOST}:${stack.ports.app}/config.json`)).status).toBe(200);
  }, 200_000);
});
