import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { CommandSentAnswer, CommandView } from '@argentum/contracts';
import type { ApiRequest } from '@argentum/contracts/api';
import { callApi } from '../../../shared/api/client';
import { applyCommandStatus } from './commands';

/** Device control (/api/deviceControl) and the third-party integrations (/integrations), for the panels. */
/** The control calls that send a tracked command, with their request bodies. */
export type SendingCall =
  'setBrightness' | 'setRollerShadesValue' | 'setFanValveValue' | 'setbacnetinfo' | 'testDevice';

export function sendControl<Call extends SendingCall>(
  call: Call,
  body: ApiRequest<Call>,
): Promise<CommandSentAnswer> {
  // Its failures are told by the panel that sent it (useTrackedCommand), in the server's words.
  return callApi(call, body, { silent: true });
}

async function fetchHistory(devID: string, signal?: AbortSignal): Promise<CommandView[]> {
  const answer = await callApi(
    'getCommandHistory',
    { devID },
    {
      signal,
      silent: true,
    },
  );
  return answer.commands;
}

/**
 * The fallback when no word came on the real-time channel: the device's history has the command
 * (timed out is derived on read). Writes it to the cache like a real-time message would.
 */
export async function readCommandFromHistory(
  queryClient: QueryClient,
  devID: string,
  commandId: string,
): Promise<CommandView | undefined> {
  const commands = await fetchHistory(devID);
  queryClient.setQueryData(controlQueries.historyKey(devID), { devID, commands });
  const view = commands.find((command) => command.commandId === commandId);
  if (view) applyCommandStatus(queryClient, view);
  return view;
}

type StateCall = 'getLockValue' | 'getFanValveValue';

/** A query's placeholder while it is read: the answer shown before, if its key began with `prefix`. */
const previousOf =
  (prefix: readonly unknown[]) =>
  <T>(previous: T | undefined, previousQuery: { queryKey: readonly unknown[] } | undefined): T | undefined =>
    previousQuery && prefix.every((part, i) => previousQuery.queryKey[i] === part) ? previous : undefined;

export const controlQueries = {
  all: (devID: string) => ['device-control', devID] as const,
  historyKey: (devID: string) => [...controlQueries.all(devID), 'history'] as const,
  history: (devID: string) =>
    queryOptions({
      queryKey: controlQueries.historyKey(devID),
      queryFn: async ({ signal }) => ({ devID, commands: await fetchHistory(devID, signal) }),
    }),
  /**
   * A port's state as the server decides it from the device's confirmations and telemetry, read again
   * whenever a reading of the port's point arrives (`toldAt`, its time, in the key: a reading of the
   * value already shown counts too, since the page may have missed the one between): an open panel
   * follows a lock turned by hand. The last answer of the same port stays shown until the new one
   * comes (never another device's or port's: a panel can be shown another device).
   */
  state: (call: StateCall, devID: string, devType: number, port: number | string, toldAt?: number) => {
    const portKey = [...controlQueries.all(devID), call, String(port)] as const;
    return queryOptions({
      queryKey: [...portKey, toldAt ?? null] as const,
      queryFn: ({ signal }) => {
        return callApi(call, { devID, devType, port }, { signal, silent: true });
      },
      placeholderData: previousOf(portKey),
    });
  },
  rysePosition: (devID: string, devType: number) =>
    queryOptions({
      queryKey: [...controlQueries.all(devID), 'ryse'] as const,
      queryFn: ({ signal }) => callApi('getRyseGearPosition', { devID, devType }, { signal }),
    }),
  nest: (devID: string, devType: number, floorId?: string) =>
    queryOptions({
      queryKey: [...controlQueries.all(devID), 'nest'] as const,
      queryFn: ({ signal }) =>
        callApi(
          'GoogleThermostatGetAmbience',
          { devID, devType, ...(floorId ? { floorId } : {}) },
          { signal },
        ),
    }),
  ecobee: (devID: string, devType: number) =>
    queryOptions({
      queryKey: [...controlQueries.all(devID), 'ecobee'] as const,
      queryFn: ({ signal }) => callApi('EcobeeGetThermostatStats', { devID, devType }, { signal }),
    }),
};

/** The integrations' writes: they answer at once with the documented text. */
export const integrationWrites = {
  ryse: (devID: string, devType: number, value: number) =>
    callApi('setRyseGearPosition', { devID, devType, value }),
  nestTemperature: (devID: string, devType: number, temp: number, mode: 0 | 1) =>
    callApi('setGoogleThermostatTemp', {
      devID,
      devType,
      temp,
      mode,
    }),
  nestMode: (devID: string, devType: number, mode: 0 | 1) =>
    callApi('setGoogleThermostatMode', { devID, devType, mode }),
  nestEco: (devID: string, devType: number, eco: boolean) =>
    callApi('setGoogleThermostatEco', { devID, devType, eco }),
  ecobee: (
    devID: string,
    devType: number,
    change: { mode: string; heatTemp: number; coolTemp: number; state?: 'nextTransition' | 'indefinite' },
  ) =>
    callApi('EcobeeSetTemperatureAndMode', {
      devID,
      devType,
      ...change,
    }),
};
