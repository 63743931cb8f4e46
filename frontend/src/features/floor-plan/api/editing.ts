import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  DEVICE_NAME_UPDATED_TEXT,
  type DeviceView,
  FLOOR_PLAN_UPDATED_TEXT,
  GROUPED_TEXT,
  GROUPING_FAILED_TEXT,
  SAVE_EDITS_FAILED_TEXT,
  THERMISTOR_ADDED_TEXT,
  UNGROUPED_TEXT,
  UNGROUPING_FAILED_TEXT,
  VALUE_UPDATED_TEXT,
} from '@argentum/contracts';
import type { ApiRequest } from '@argentum/contracts/api';
import { ApiError, callApi } from '../../../shared/api/client';
import { showToast } from '../../../shared/ui/toastStore';
import { floorPlanQueries } from './floorPlanQueries';

/** Edit mode, device configuration and grouping calls of the floor view (/api/deviceControl). */
const deviceCall = <Call extends DeviceCall>(
  call: Call,
  body: ApiRequest<Call>,
  options: { silent?: boolean } = {},
) => callApi(call, body, options);

type DeviceCall =
  | 'updateOnFloorStatus'
  | 'updateDevice'
  | 'updateDeviceDataPoint'
  | 'addThermistor'
  | 'groupDevices'
  | 'ungroupDevices';

export const editingQueries = {
  /** The organization's devices that are on no floor: the tiles of edit mode's drawer. */
  offFloorDevices: (orgID: string, floorID: string) =>
    queryOptions({
      queryKey: [...floorPlanQueries.all(), 'off-floor', orgID, floorID] as const,
      queryFn: ({ signal }) =>
        callApi('getAllDevicesDataForFloorPlan', { orgID, floorID, onFloor: false }, { signal }).then(
          (answer) => answer.devices,
        ),
      staleTime: 0,
    }),
};

/** The device changed since it was read: the write is refused and the device read again. */
const DEVICE_CHANGED_TEXT =
  'This device was changed by someone else meanwhile. It has been reloaded: check it and try again.';
const FLOOR_CHANGED_TEXT =
  'Devices on this floor were changed by someone else meanwhile. Your edits are still here: reload the floor to see theirs.';

const isConflict = (error: unknown) => error instanceof ApiError && error.status === 409;

function useRefreshFloor() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: floorPlanQueries.all() });
}

/**
 * Edit mode's Save: one all-or-nothing /updateOnFloorStatus. On failure nothing is lost on screen
 * (the session stays); on success the floor is fetched again.
 */
export function useSaveFloorEdits() {
  const refresh = useRefreshFloor();
  return useMutation({
    mutationFn: (body: ApiRequest<'updateOnFloorStatus'>) =>
      deviceCall('updateOnFloorStatus', body, { silent: true }),
    onSuccess: async () => {
      showToast(FLOOR_PLAN_UPDATED_TEXT, 'success');
      await refresh();
    },
    onError: (error) => {
      showToast(SAVE_EDITS_FAILED_TEXT, 'error');
      // Say why when the server did (a refused gateway, a floor being deleted, a conflict).
      if (isConflict(error)) showToast(FLOOR_CHANGED_TEXT, 'warning');
      else if (error instanceof ApiError && error.isClientError) showToast(error.message, 'warning');
    },
  });
}

/** Name and data-point edits of the configuration drawer, and the thermistor child node. */
export function useDeviceConfiguration() {
  const refresh = useRefreshFloor();
  const onError = async (error: unknown) => {
    if (isConflict(error)) {
      await refresh();
      showToast(DEVICE_CHANGED_TEXT, 'warning');
      return;
    }
    if (error instanceof ApiError && error.isClientError) showToast(error.message, 'error');
  };

  const rename = useMutation({
    mutationFn: ({ device, devName }: { device: DeviceView; devName: string }) =>
      deviceCall('updateDevice', {
        devID: device.devID,
        devType: device.devType,
        devUpdateObj: { devName },
        version: device.version,
      }),
    onSuccess: async () => {
      showToast(DEVICE_NAME_UPDATED_TEXT, 'success');
      await refresh();
    },
    onError,
  });

  const renameDataPoint = useMutation({
    mutationFn: ({ device, dp, dn }: { device: DeviceView; dp: string; dn: string }) =>
      deviceCall('updateDeviceDataPoint', {
        devID: device.devID,
        devType: device.devType,
        devUpdateObj: {
          dataPoints: device.dataPoints.map((point) => ({
            dp: point.dp,
            ...(point.dp === dp ? { dn } : point.dn !== undefined ? { dn: point.dn } : {}),
            ...(point.readonly !== undefined ? { readonly: point.readonly } : {}),
          })),
        },
        version: device.version,
      }),
    onSuccess: async () => {
      showToast(VALUE_UPDATED_TEXT, 'success');
      await refresh();
    },
    onError,
  });

  /** The icon the device presents itself as (properties.conndev), one of its type's choices. */
  const setIcon = useMutation({
    mutationFn: ({ device, icon }: { device: DeviceView; icon: string }) =>
      deviceCall('updateDevice', {
        devID: device.devID,
        devType: device.devType,
        devUpdateObj: { properties: { conndev: icon } },
        version: device.version,
      }),
    onSuccess: async () => {
      showToast(VALUE_UPDATED_TEXT, 'success');
      await refresh();
    },
    onError,
  });

  const addThermistor = useMutation({
    mutationFn: (body: ApiRequest<'addThermistor'>) => deviceCall('addThermistor', body),
    onSuccess: async () => {
      showToast(THERMISTOR_ADDED_TEXT, 'success');
      await refresh();
    },
    onError,
  });

  return { rename, renameDataPoint, setIcon, addThermistor };
}

export type GroupingOutcome = { kind: 'grouping' | 'ungrouping'; ok: boolean };

/**
 * The single place a grouping result is shown. The call's answer drives it, and so does a device's
 * grouping failure (commands 62/63, and 3/4 for power nodes) pushed on its floor's live topic
 * (app/realtimeFeeds.ts); each then reads the floor again.
 */
export function announceGroupingOutcome({ kind, ok }: GroupingOutcome): void {
  if (kind === 'grouping') showToast(ok ? GROUPED_TEXT : GROUPING_FAILED_TEXT, ok ? 'success' : 'error');
  else showToast(ok ? UNGROUPED_TEXT : UNGROUPING_FAILED_TEXT, ok ? 'success' : 'error');
}

export function useGroupingCalls() {
  const refresh = useRefreshFloor();
  const settle = async (outcome: GroupingOutcome, error?: unknown) => {
    announceGroupingOutcome(outcome);
    if (error instanceof ApiError && error.isClientError && error.status !== 409)
      showToast(error.message, 'warning');
    // On failure too: the group attributes are read again (section 4).
    await refresh();
  };
  return useMutation({
    mutationFn: ({ kind, devIDs }: { kind: 'grouping' | 'ungrouping'; devIDs: string[] }) =>
      deviceCall(
        kind === 'grouping' ? 'groupDevices' : 'ungroupDevices',
        { devID: devIDs },
        { silent: true },
      ),
    onSuccess: (_answer, { kind }) => settle({ kind, ok: true }),
    onError: (error, { kind }) => settle({ kind, ok: false }, error),
  });
}
