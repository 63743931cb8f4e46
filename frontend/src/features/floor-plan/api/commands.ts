import type { QueryClient } from '@tanstack/react-query';
import { type CommandView, isPending } from '@argentum/contracts';

/**
 * Tracked commands in the query cache. A control call answers `{commandId, status: 'sent'}`; the
 * platform's word on it (a `CommandView` on `{orgId}/commandstatus/{userId}`, or a read of the device's command
 * history) is written under `commandKey(commandId)`, where the panel that sent it is waiting.
 */
export const commandKey = (commandId: string) => ['command', commandId] as const;

/**
 * Records a command's settled (or pending) state; an older state never replaces a newer one: pending
 * never replaces settled, timed out never replaces confirmed late.
 */
export function applyCommandStatus(queryClient: QueryClient, view: CommandView): void {
  queryClient.setQueryData<CommandView>(commandKey(view.commandId), (known) => {
    if (known && !isPending(known.status) && isPending(view.status)) return known;
    if (known?.status === 'confirmed late' && view.status === 'timed out') return known;
    return view;
  });
}
