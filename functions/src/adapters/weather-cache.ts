import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/dynamo';
import { config } from '../config';
import type { WeatherCache } from '../domain/telemetry/weather';
import { keys } from '../stores/keys';

/** The last weather reading per city, one item in the platform table (expires after a day). */
export const dynamoWeatherCache: WeatherCache = {
  async get(city) {
    const { Item } = await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.weather(city) }),
    );
    if (!Item || typeof Item.pressureHpa !== 'number') return undefined;
    return {
      reading: { pressureHpa: Item.pressureHpa, time: Number(Item.time) },
      fetchedAt: Number(Item.fetchedAt),
    };
  },
  async put(city, reading, fetchedAt) {
    await dynamo().send(
      new PutCommand({
        TableName: config.platformTable,
        Item: {
          ...keys.weather(city),
          entity: 'weather',
          pressureHpa: reading.pressureHpa,
          time: reading.time,
          fetchedAt,
          expiresAt: Math.floor(fetchedAt / 1000) + 24 * 3600,
        },
      }),
    );
  },
};
