import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openWeatherMap } from '../../src/adapters/weather-openweathermap';
import answer from '../support/fixtures/openweathermap-current.json' with { type: 'json' };

// The provider adapter against the provider's documented answer, served from loopback.
let server: Server;
let url: string;
const asked: URL[] = [];
let status = 200;
let body: unknown = answer;
beforeAll(async () => {
  server = createServer((request, response) => {
    asked.push(new URL(request.url ?? '/', 'http://local'));
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/data/2.5/weather`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it("reads main.pressure (hPa) and dt (seconds) from the provider's answer, asking for the city with the key", async () => {
  status = 200;
  body = answer;
  const reading = await openWeatherMap({ apiUrl: url, apiKey: 'k3y' }).current('Zocca');
  expect(reading).toEqual({ pressureHpa: 1015, time: 1661870592000 });
  expect(asked.at(-1)?.searchParams.get('q')).toBe('Zocca');
  expect(asked.at(-1)?.searchParams.get('appid')).toBe('k3y');
});

it('fails on an error status or an answer without a pressure', async () => {
  status = 401;
  body = { cod: 401, message: 'Invalid API key.' };
  await expect(openWeatherMap({ apiUrl: url }).current('Zocca')).rejects.toThrow(
    'weather provider answered 401',
  );
  status = 200;
  body = { ...answer, main: {} };
  await expect(openWeatherMap({ apiUrl: url }).current('Zocca')).rejects.toThrow(/not understood/);
});
