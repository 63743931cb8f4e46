import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HOST } from './config';
import { listen } from './http-util';

/** The city the local stack's weather is for. */
const LOCAL_WEATHER_CITY = 'Toronto';

/**
 * Stands in for the weather provider (OpenWeatherMap's current-weather API,
 * `GET /data/2.5/weather?q={city}&appid={key}&units=metric`): answers its response shape, with a
 * pressure that drifts slowly around 1013 hPa. Any path works; an unknown city answers OpenWeatherMap's 404.
 */
export async function startWeatherStandIn(): Promise<{ server: Server; url: string; city: string }> {
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://local');
    const city = url.searchParams.get('q') ?? '';
    if (city.toLowerCase() !== LOCAL_WEATHER_CITY.toLowerCase()) {
      response
        .writeHead(404, { 'content-type': 'application/json; charset=utf-8' })
        .end(JSON.stringify({ cod: '404', message: 'city not found' }));
      return;
    }
    const now = Math.floor(Date.now() / 1000);
    const pressure = 1013 + Math.round(4 * Math.sin(now / 21_600));
    response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(
      JSON.stringify({
        coord: { lon: -79.4163, lat: 43.7001 },
        weather: [{ id: 803, main: 'Clouds', description: 'broken clouds', icon: '04d' }],
        base: 'stations',
        main: {
          temp: 8.4,
          feels_like: 5.9,
          temp_min: 7.1,
          temp_max: 9.6,
          pressure,
          humidity: 71,
          sea_level: pressure,
          grnd_level: pressure - 12,
        },
        visibility: 10000,
        wind: { speed: 4.63, deg: 250 },
        clouds: { all: 75 },
        dt: now,
        sys: { type: 2, id: 2043365, country: 'CA', sunrise: now - 20_000, sunset: now + 15_000 },
        timezone: -18000,
        id: 6167865,
        name: LOCAL_WEATHER_CITY,
        cod: 200,
      }),
    );
  });
  await listen(server, 0, HOST);
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://${HOST}:${port}/data/2.5/weather`, city: LOCAL_WEATHER_CITY };
}
