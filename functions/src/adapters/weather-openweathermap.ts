import * as z from 'zod/mini';
import type { WeatherProvider } from '../domain/telemetry/weather';

/** The part of OpenWeatherMap's current-weather answer we read (pressure in hPa, dt in epoch seconds). */
const answerSchema = z.lazy(() =>
  z.object({
    main: z.object({ pressure: z.number().check(z.positive()) }),
    dt: z.number().check(z.int(), z.positive()),
  }),
);

/**
 * OpenWeatherMap's current weather (`GET {apiUrl}?q={city}&appid={key}&units=metric`); another provider
 * with the same answer shape works too. Gives up after `timeoutMs`.
 */
export function openWeatherMap(options: {
  apiUrl: string;
  apiKey?: string | undefined;
  timeoutMs?: number;
}): WeatherProvider {
  return {
    async current(city) {
      const url = new URL(options.apiUrl);
      url.searchParams.set('q', city);
      url.searchParams.set('units', 'metric');
      if (options.apiKey) url.searchParams.set('appid', options.apiKey);
      const response = await fetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 3000) });
      if (!response.ok) throw new Error(`weather provider answered ${response.status}`);
      const parsed = answerSchema.safeParse(await response.json());
      if (!parsed.success) throw new Error(`weather provider answer not understood: ${parsed.error.message}`);
      return { pressureHpa: parsed.data.main.pressure, time: parsed.data.dt * 1000 };
    },
  };
}
