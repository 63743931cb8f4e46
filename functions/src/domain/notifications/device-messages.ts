import { Command, type ConfirmationMessage, type ConfirmationOutcome } from '@argentum/contracts/messaging';
import { NotificationType, PAIRING_FAILED_TEXT } from '@argentum/contracts';
import { type AlarmDevice, type AlarmPorts, deviceLabel, raiseEvent, raiseRepeatingEvent } from './alarms';
import { html } from './notification-html';

/** What became of a confirmation for its command (domain/control/confirmations.ts). */
export type SettledAs = 'confirmed' | 'failed' | 'late' | 'duplicate' | 'unknown' | 'untracked' | 'invalid';

/**
 * The alarms in a device's message on `{orgId}/controldata/success|fail`:
 * - online / offline (cmnd 1) moves the device's presence (domain/devices/presence.ts), whose offline
 *   episodes raise the offline alarm after their grace period: nothing here;
 * - a pairing failure (cmnd 17) is an error event, raised at most once in REPEATING_EVENT_QUIET_MS
 *   (alarms.ts) for a device that keeps failing;
 * - a command the device refused is a warning, one per command; so is a command whose word came only
 *   after the 5-second timeout (the user was told it failed).
 */
export async function alarmsOfDeviceMessage(
  deps: AlarmPorts,
  device: AlarmDevice,
  delivery: { outcome: ConfirmationOutcome; message: ConfirmationMessage; settled: SettledAs; time: number },
): Promise<void> {
  const { outcome, message, settled, time } = delivery;
  if (message.cmnd === Command.deviceOnline) return;
  if (message.cmnd === Command.pairingFailed && outcome === 'fail') {
    await raiseRepeatingEvent(deps, device, {
      kind: 'pairing',
      type: NotificationType.error,
      message: html`<b>${deviceLabel(device)}</b>: ${PAIRING_FAILED_TEXT}`,
      time,
    });
    return;
  }
  if (message.commandId && (settled === 'failed' || settled === 'late')) {
    await raiseEvent(deps, device, {
      key: `command#${message.commandId}`,
      type: NotificationType.warning,
      message:
        settled === 'failed'
          ? html`<b>${deviceLabel(device)}</b>: Value change failed`
          : html`<b>${deviceLabel(device)}</b>: did not confirm the change within 5 seconds`,
      time,
    });
  }
}
