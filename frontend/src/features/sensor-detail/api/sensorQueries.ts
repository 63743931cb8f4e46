import { queryOptions } from '@tanstack/react-query';
import type { WeatherAnswer } from '@argentum/contracts';
import type { ExportRequestBody } from '@argentum/contracts/requests';
import { callApi } from '../../../shared/api/client';
import { LIVE_REREAD_MS } from '../../../shared/realtime/liveReread';
import { rangeAt, reachesNow } from '../components/format';
import { RANGE_RECEIVED_MARK } from '../perf';

/** The organization and the days chosen (a query's key: the same while the page follows the present). */
export interface RangeArgs {
  orgId: string;
  startDate: number;
  endDate: number;
}

/** The days as asked when read: until now when they reach today. */
const cusDate = (a: RangeArgs) => ({ ...rangeAt(a), key: 'selection' });

/**
 * Days that reach today are read again every LIVE_REREAD_MS while the page is shown (and when it is
 * shown again), each time until then: a graph left open goes on with the readings that came since.
 */
const followingNow = (a: RangeArgs) => () => (reachesNow(a) ? LIVE_REREAD_MS : false);

/** The only place the sensor page's query keys are written. */
export const sensorQueries = {
  all: () => ['sensor-detail'] as const,
  devices: (devID: string) =>
    queryOptions({
      queryKey: [...sensorQueries.all(), 'devices', devID] as const,
      queryFn: ({ signal }) =>
        callApi('getSensorDevices', { devID } satisfies ExportRequestBody<'getSensorDevices'>, { signal }),
      staleTime: 60_000,
    }),
  range: (devID: string, dp: string, label: string, args: RangeArgs) =>
    queryOptions({
      queryKey: [...sensorQueries.all(), 'range', devID, dp, args] as const,
      queryFn: async ({ signal }) => {
        const answer = await callApi(
          'getDeviceInfoDateRange',
          {
            devID,
            sensorDataPoint: dp,
            cusDate: cusDate(args),
            orgId: args.orgId,
            sensorDataPointLabel: label,
          },
          { signal },
        );
        performance.mark(RANGE_RECEIVED_MARK);
        return answer;
      },
      refetchInterval: followingNow(args),
    }),
  comfort: (devID: string, param: string, args: RangeArgs) =>
    queryOptions({
      queryKey: [...sensorQueries.all(), 'comfort', devID, param, args] as const,
      queryFn: ({ signal }) =>
        callApi(
          'getComfortGraphInfo',
          { device: devID, param, cusDate: cusDate(args), orgId: args.orgId },
          { signal },
        ),
      refetchInterval: followingNow(args),
    }),
  motion: (devID: string, args: RangeArgs) =>
    queryOptions({
      queryKey: [...sensorQueries.all(), 'motion', devID, args] as const,
      queryFn: ({ signal }) =>
        callApi(
          'getMotionSensorData',
          { deviceIds: [devID], dateRange: cusDate(args), orgId: args.orgId },
          { signal },
        ),
      refetchInterval: followingNow(args),
    }),
  /** Outdoor pressure; null when the provider cannot be reached (the page never fails for it). */
  weather: () =>
    queryOptions({
      queryKey: [...sensorQueries.all(), 'weather'] as const,
      queryFn: async ({ signal }): Promise<WeatherAnswer | null> => {
        try {
          return await callApi('weather', {}, { signal, silent: true });
        } catch {
          return null;
        }
      },
      staleTime: 10 * 60_000,
      retry: false,
    }),
};
