import { skipToken, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import {
  type CommandSentAnswer,
  type CommandView,
  type ControlValue,
  UNEXPECTED_ERROR_TEXT,
} from '@argentum/contracts';
import { serverText } from '../../../../shared/api/client';
import { showToast } from '../../../../shared/ui/toastStore';
import { commandKey } from '../../api/commands';
import { controlQueries, readCommandFromHistory } from '../../api/control';
import {
  awaitedCommand,
  fallbackDelay,
  HISTORY_MAX_READS,
  HISTORY_RETRY_MS,
  controlReducer,
  type Confirmation,
  idleControl,
  type TrackedState,
} from './trackedCommand';

export interface TrackedCommand {
  state: TrackedState;
  /**
   * The device's last confirmation (its reply), across this control's commands; see reportedValue for
   * what a panel shows once the device reports a value of its own since.
   */
  confirmed: Confirmation | undefined;
  /** Sends `value` with `call` (a control call answering `{commandId, status, deadlineAt}`). */
  send(value: ControlValue, call: () => Promise<CommandSentAnswer>): void;
}

/**
 * A control's tracked command: pending from the call until the settled CommandView is in the query
 * cache (the real-time client writes it with applyCommandStatus), then settled with the device's word
 * and the documented text (toasted once). If nothing arrived by the deadline (+1 s), the device's
 * command history is read instead, so a control never stays pending. A timed-out command is still
 * awaited: the device's success after the deadline ('confirmed late') replaces it, with its value.
 */
export function useTrackedCommand(devID: string): TrackedCommand {
  const queryClient = useQueryClient();
  const [{ command: state, confirmed }, dispatch] = useReducer(controlReducer, idleControl);
  const commandId = awaitedCommand(state);
  // Subscribes to the command's cache entry: applyCommandStatus (real time or history) fills it.
  const { data: cached } = useQuery<CommandView>({
    queryKey: commandKey(commandId ?? 'none'),
    queryFn: skipToken,
    enabled: commandId !== null,
  });

  useEffect(() => {
    if (cached && commandId === cached.commandId) dispatch({ type: 'status', view: cached });
  }, [cached, commandId]);

  // The fallback: the history once the deadline has passed, again a little later while still pending.
  // (A timed-out command is still awaited on the channel, for a late confirmation, but not read.)
  const deadlineAt = state.phase === 'pending' ? state.deadlineAt : null;
  useEffect(() => {
    if (!commandId || !deadlineAt) return;
    let reads = 0;
    let timer: ReturnType<typeof setTimeout>;
    const read = async () => {
      reads++;
      const view = await readCommandFromHistory(queryClient, devID, commandId).catch(() => undefined);
      if ((!view || view.status === 'sent' || view.status === 'requested') && reads < HISTORY_MAX_READS) {
        timer = setTimeout(() => void read(), HISTORY_RETRY_MS);
      }
    };
    timer = setTimeout(() => void read(), fallbackDelay(deadlineAt, Date.now()));
    return () => clearTimeout(timer);
  }, [commandId, deadlineAt, devID, queryClient]);

  // Once settled: the documented text, and the panel's reads and the history refreshed.
  const settled = state.phase === 'settled' ? state.view : undefined;
  useEffect(() => {
    if (!settled) return;
    const success = settled.status === 'confirmed' || settled.status === 'confirmed late';
    if (settled.text) showToast(settled.text, success ? 'success' : 'warning');
    void queryClient.invalidateQueries({ queryKey: controlQueries.all(devID) });
  }, [settled, devID, queryClient]);

  const sends = useRef(0);
  const send = useCallback(
    (value: ControlValue, call: () => Promise<CommandSentAnswer>) => {
      const seq = ++sends.current;
      dispatch({ type: 'send', value, seq });
      call().then(
        (answer) => {
          // Settled at once (the device is offline): the answer carries the command as recorded.
          if (answer.command) queryClient.setQueryData(commandKey(answer.commandId), answer.command);
          dispatch({ type: 'sent', answer, seq });
          void queryClient.invalidateQueries({ queryKey: controlQueries.historyKey(devID) });
        },
        // Refused (403 'User is unAuthorized', 400), or not sent (502 'Something went wrong'): the
        // server's text, toasted and kept in the panel; the generic one when no answer came.
        (error: unknown) => {
          const text = serverText(error) ?? UNEXPECTED_ERROR_TEXT;
          showToast(text, 'error');
          dispatch({ type: 'refused', seq, text });
        },
      );
    },
    [devID, queryClient],
  );
  return { state, confirmed, send };
}
