import type { WeatherAnswer } from '@argentum/contracts';
import type { Clock, Logger } from '../ports';

/** The provider's current weather of a city: its pressure in hPa, and when it was measured (epoch ms). */
export interface WeatherReading {
  pressureHpa: number;
  time: number;
}

/** The weather provider (OpenWeatherMap's API shape by default). Throws when it cannot answer. */
export interface WeatherProvider {
  current(city: string): Promise<WeatherReading>;
}

/** A shared cache of the last reading per city (so that cold Lambdas do not all ask the provider). */
export interface WeatherCache {
  get(city: string): Promise<{ reading: WeatherReading; fetchedAt: number } | undefined>;
  put(city: string, reading: WeatherReading, fetchedAt: number): Promise<void>;
}

export interface WeatherPorts {
  weatherProvider: WeatherProvider;
  weatherCache: WeatherCache;
  clock: Clock;
  logger: Logger;
}

/** A reading is asked for again after this long. */
export const WEATHER_FRESH_MS = 10 * 60_000;
/** When the provider is down, a reading up to this old is still shown. */
export const WEATHER_STALE_MS = 6 * 3_600_000;

const memory = new Map<string, { reading: WeatherReading; fetchedAt: number }>();

const answerOf = (city: string, reading: WeatherReading | undefined): WeatherAnswer => ({
  city,
  // main.pressure is hPa; the product shows kPa (hPa / 10), one decimal more than the provider gives.
  pressureKpa: reading ? Math.round(reading.pressureHpa * 10) / 100 : null,
  time: reading ? reading.time : null,
});

/**
 * The configured city's outdoor pressure: from this Lambda's memory or the shared cache while fresh
 * (10 minutes), else from the provider. The page never fails because of the provider: when it is down
 * or answers nonsense, the last reading (up to 6 hours old) or null is answered.
 */
export async function outdoorWeather(deps: WeatherPorts, city: string): Promise<WeatherAnswer> {
  const now = deps.clock.now().getTime();
  let known = memory.get(city);
  if (!known || now - known.fetchedAt >= WEATHER_FRESH_MS) {
    const shared = await deps.weatherCache.get(city).catch(() => undefined);
    if (shared && (!known || shared.fetchedAt > known.fetchedAt)) known = shared;
  }
  if (known && now - known.fetchedAt < WEATHER_FRESH_MS) {
    memory.set(city, known);
    return answerOf(city, known.reading);
  }
  try {
    const reading = await deps.weatherProvider.current(city);
    memory.set(city, { reading, fetchedAt: now });
    await deps.weatherCache
      .put(city, reading, now)
      .catch((error: unknown) =>
        deps.logger.log('warn', 'weather cache not written', { error: String(error) }),
      );
    return answerOf(city, reading);
  } catch (error) {
    deps.logger.log('warn', 'weather provider did not answer', {
      city,
      error: error instanceof Error ? error.message : String(error),
    });
    return answerOf(city, known && now - known.fetchedAt < WEATHER_STALE_MS ? known.reading : undefined);
  }
}
