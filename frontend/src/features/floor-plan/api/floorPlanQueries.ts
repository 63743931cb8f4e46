import { mutationOptions, type Query, queryOptions, type QueryClient } from '@tanstack/react-query';
import {
  VALUE_SAVED_TEXT,
  type FloorDevicesAnswer,
  type FloorPlanAnswer,
  type SensorsCountAnswer,
} from '@argentum/contracts';
import type { DeviceRequest, FloorPlanRequest } from '@argentum/contracts/requests';
import { ApiError, callApi } from '../../../shared/api/client';
import { postFile } from '../../../shared/api/upload';
import { LIVE_REREAD_MS } from '../../../shared/realtime/liveReread';
import { showToast } from '../../../shared/ui/toastStore';
import { keepNewer } from './deviceMerge';

/** The floor the view shows: the ids its calls need. */
export interface FloorRef {
  floorId: string;
  orgId: string;
  buildId: string;
}

async function fetchPlan(floor: FloorRef, signal: AbortSignal): Promise<FloorPlanAnswer | null> {
  const body: FloorPlanRequest<'floorPlanFromS3'> = { orgID: floor.orgId, floorID: floor.floorId };
  try {
    const answer = await callApi('floorPlanFromS3', body, {
      signal,
    });
    // 404 or an empty answer: the floor has no plan yet (the upload panel opens).
    return answer && typeof answer.data === 'string' && answer.data !== '' ? answer : null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

async function fetchDevices(floor: FloorRef, signal: AbortSignal): Promise<FloorDevicesAnswer> {
  const body: DeviceRequest<'getAllDevicesDataForFloorPlan'> = {
    floorID: floor.floorId,
    orgID: floor.orgId,
    onFloor: true,
  };
  const answer = await callApi('getAllDevicesDataForFloorPlan', body, { signal });
  return {
    devices: answer.devices ?? [],
    sensorSizes: answer.sensorSizes ?? {},
    ...(answer.gatewaysElsewhere ? { gatewaysElsewhere: answer.gatewaysElsewhere } : {}),
  };
}

async function fetchCounts(floor: FloorRef, signal: AbortSignal): Promise<SensorsCountAnswer> {
  const body: DeviceRequest<'getAnalyticsSensorsCount'> = {
    floorID: floor.floorId,
    buildID: floor.buildId,
    orgID: floor.orgId,
  };
  // The details panel is optional: its failure is only logged (specification section 8).
  return callApi('getAnalyticsSensorsCount', body, {
    signal,
    silent: true,
  });
}

/** The only place the floor view's query keys are written. Keys hold the floor id only. */
export const floorPlanQueries = {
  all: () => ['floor-plan'] as const,
  floor: (floorId: string) => [...floorPlanQueries.all(), floorId] as const,
  devicesKey: (floorId: string) => [...floorPlanQueries.floor(floorId), 'devices'] as const,
  countsKey: (floorId: string) => [...floorPlanQueries.floor(floorId), 'counts'] as const,
  plan: (floor: FloorRef) =>
    queryOptions({
      queryKey: [...floorPlanQueries.floor(floor.floorId), 'plan'] as const,
      queryFn: ({ signal }) => fetchPlan(floor, signal),
      // The answer holds a short-lived URL: fetch it again well before it expires.
      staleTime: 4 * 60_000,
    }),
  devices: (floor: FloorRef) =>
    queryOptions({
      queryKey: floorPlanQueries.devicesKey(floor.floorId),
      // Live values that arrived while the answer was read are newer than it: they stay.
      queryFn: async ({ signal, client }) => {
        const answer = await fetchDevices(floor, signal);
        return keepNewer(
          client.getQueryData<FloorDevicesAnswer>(floorPlanQueries.devicesKey(floor.floorId)),
          answer,
        );
      },
      refetchInterval: LIVE_REREAD_MS,
    }),
  /**
   * The queries the live topic keeps current (devices and counts; not the plan), of one floor or of
   * all: read again when live messages may have been missed (a reconnect, a floor watched again; and
   * every LIVE_REREAD_MS).
   */
  live:
    (floorId?: string) =>
    ({ queryKey: [root, id, part] }: Query): boolean =>
      root === floorPlanQueries.all()[0] &&
      (floorId === undefined || id === floorId) &&
      (part === 'devices' || part === 'counts'),
  /** The user's icon size per device type on the floor: part of the devices answer. */
  sensorSizes: (floor: FloorRef) =>
    queryOptions({
      ...floorPlanQueries.devices(floor),
      select: (answer: FloorDevicesAnswer) => answer.sensorSizes,
    }),
  counts: (floor: FloorRef) =>
    queryOptions({
      queryKey: floorPlanQueries.countsKey(floor.floorId),
      queryFn: ({ signal }) => fetchCounts(floor, signal),
      refetchInterval: LIVE_REREAD_MS,
      retry: false,
    }),
};

interface SensorSizeChange {
  floor: FloorRef;
  devType: number;
  value: number;
}

interface PlanUpload {
  floor: FloorRef;
  file: File;
  onProgress?: (sent: number) => void;
}

const QUIET = { silent: true } as const;

export const floorPlanMutations = {
  /** Saves an icon size; the cache changes first so the icons follow the slider at once. */
  sensorSize: (queryClient: QueryClient, userId: string) =>
    mutationOptions({
      mutationFn: ({ floor, devType, value }: SensorSizeChange) => {
        const body: FloorPlanRequest<'updateSensorSize'> = {
          userID: userId,
          value,
          devType,
          floorId: floor.floorId,
        };
        return callApi('updateSensorSize', body);
      },
      onMutate: ({ floor, devType, value }: SensorSizeChange) => {
        setSensorSize(queryClient, floor.floorId, devType, value);
      },
      onSuccess: () => showToast(VALUE_SAVED_TEXT, 'success'),
      onError: (_error, { floor }) =>
        queryClient.invalidateQueries({ queryKey: floorPlanQueries.devicesKey(floor.floorId) }),
    }),
  /**
   * A plan goes straight to storage: the API presigns a form for one SVG, the file is posted with it
   * (progress from 0 to 1), and the API then sanitizes it and makes it the floor's plan.
   */
  uploadPlan: (queryClient: QueryClient) =>
    mutationOptions({
      mutationFn: async ({ floor, file, onProgress }: PlanUpload) => {
        const request: FloorPlanRequest<'createFloorPlanUpload'> = {
          orgID: floor.orgId,
          floorID: floor.floorId,
          contentType: file.type || 'image/svg+xml',
          size: file.size,
        };
        const form = await callApi('createFloorPlanUpload', request, QUIET);
        await postFile(form, file, onProgress);
        const commit: FloorPlanRequest<'updateFloorPlanS3'> = {
          orgID: floor.orgId,
          floorID: floor.floorId,
          floorplan: form.key,
        };
        return callApi('updateFloorPlanS3', commit, QUIET);
      },
      onSuccess: (_answer, { floor }) =>
        queryClient.invalidateQueries({ queryKey: floorPlanQueries.plan(floor).queryKey }),
    }),
};

/** Changes one icon size in the cached devices answer. */
export function setSensorSize(queryClient: QueryClient, floorId: string, devType: number, value: number) {
  queryClient.setQueryData<FloorDevicesAnswer>(floorPlanQueries.devicesKey(floorId), (answer) =>
    answer ? { ...answer, sensorSizes: { ...answer.sensorSizes, [String(devType)]: value } } : answer,
  );
}
