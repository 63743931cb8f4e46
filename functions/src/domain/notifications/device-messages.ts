import { Command, type ConfirmationMessage, type ConfirmationOutcome } from '@argentum/events';
import { DEVICE_OFFLINE_TEXT, NotificationType, PAIRING_FAILED_TEXT } from '@argentum/events/contracts';
import { type AlarmDevice, type AlarmPorts, observeDevice, raiseEvent } from './alarms';
import { html } from './messages';

/** What became of a confirmation for its command (domain/control/confirmations.ts). */
export type SettledAs = 'confirmed' | 'failed' | 'late' | 'duplicate' | 'unknown' | 'untracked' | 'invalid';

/**
 * The alarms in a device's message on `{orgId}/controldata/success|fail`:
 * - offline (cmnd 1 on fail) is an error alarm that lasts until the device says it is online again;
 * - a pairing failure (cmnd 17) is an error event;
 * - a command the device refused is a warning, one per command; so is a command whose word came only
 *   after the 5-second timeout (the user was told it failed).
 */
export async function alarmsOfDeviceMessage(
  deps: AlarmPorts,
  device: AlarmDevice,
  delivery: { outcome: ConfirmationOutcome; message: ConfirmationMessage; settled: SettledAs; time: number },
): Promise<void> {
  const { outcome, message, settled, time } = delivery;
  if (message.cmnd === Command.deviceOnline) {
    await observeDevice(deps, device, [
      {
        condition: 'offline',
        active: outcome === 'fail',
        time,
        raiseAfterMs: 0,
        type: NotificationType.error,
        message: html`<b>${device.devName}</b>: ${DEVICE_OFFLINE_TEXT}`,
      },
    ]);
    return;
  }
  if (message.cmnd === Command.pairingFailed && outcome === 'fail') {
    await raiseEvent(deps, device, {
      key: `pairing#${time}`,
      type: NotificationType.error,
      message: html`<b>${device.devName}</b>: ${PAIRING_FAILED_TEXT}`,
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
          ? html`<b>${device.devName}</b>: Value change failed`
          : html`<b>${device.devName}</b>: did not confirm the change within 5 seconds`,
      time,
    });
  }
}
