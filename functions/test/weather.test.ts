import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { dynamoWeatherCache } from '../src/adapters/weather-cache';
import { openWeatherMap } from '../src/adapters/weather-openweathermap';
import { systemClock } from '../src/domain/ports';
import { outdoorWeather, WEATHER_FRESH_MS } from '../src/domain/telemetry/weather';
import { log } from '../src/http/log';

// Port 9 (discard) has no listener here: the provider is down.
const downProvider = openWeatherMap({ apiUrl: 'http://127.0.0.1:9/data/2.5/weather', timeoutMs: 1000 });
const logger = { log };

it('answers null, not an error, when the provider is down and nothing is cached', async () => {
  const city = `Nowhere-${randomUUID()}`;
  const answer = await outdoorWeather(
    { weatherProvider: downProvider, weatherCache: dynamoWeatherCache, clock: systemClock, logger },
    city,
  );
  expect(answer).toEqual({ city, pressureKpa: null, time: null });
});

it('answers the last reading when the provider is down after it answered once', async () => {
  const city = `Somewhere-${randomUUID()}`;
  await dynamoWeatherCache.put(
    city,
    { pressureHpa: 1002, time: 1_700_000_000_000 },
    Date.now() - WEATHER_FRESH_MS - 1,
  );
  const answer = await outdoorWeather(
    { weatherProvider: downProvider, weatherCache: dynamoWeatherCache, clock: systemClock, logger },
    city,
  );
  expect(answer).toEqual({ city, pressureKpa: 100.2, time: 1_700_000_000_000 });
});
