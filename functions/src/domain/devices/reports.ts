import { Command, type ConfirmationMessage, type ConfirmationOutcome } from '@argentum/contracts/messaging';
import { versionOf } from './device';
import type { DevicePorts } from './ports';
import { withRetries, written } from './rules';

/**
 * What a device's own message on `{orgId}/controldata/success|fail` changes in its stored state
 * (specification: states and transitions): a pairing failure (17) turns its pairing mode off, and the
 * power node port values it reports (201 port one, 202 port two, 203 both) become the stored ones.
 * Undefined when the message changes nothing.
 */
export function reportedProperties(
  outcome: ConfirmationOutcome,
  message: Pick<ConfirmationMessage, 'cmnd' | 'val'>,
): Record<string, unknown> | undefined {
  if (message.cmnd === Command.pairingFailed) return outcome === 'fail' ? { pairingMode: false } : undefined;
  if (outcome !== 'success') return undefined;
  return reportedPortValues(message);
}

/** A power node's port values as stored in its properties (0 or 1 each). */
export type PortValues = {
  portOneValue?: 0 | 1;
  portTwoValue?: 0 | 1;
};

/** The port values a power node's success on 201, 202 or 203 reports; undefined for any other message or value. */
export function reportedPortValues(message: Pick<ConfirmationMessage, 'cmnd' | 'val'>): PortValues | undefined {
  const value = message.val;
  if (value !== 0 && value !== 1) return undefined;
  switch (message.cmnd) {
    case Command.portOneValue:
      return { portOneValue: value };
    case Command.portTwoValue:
      return { portTwoValue: value };
    case Command.portBothValue:
      return { portOneValue: value, portTwoValue: value };
    default:
      return undefined;
  }
}

const portCommands: readonly number[] = [Command.portOneValue, Command.portTwoValue, Command.portBothValue];

/** Whether a message is a power node's word on its port values (201, 202, 203). */
export const isPortReport = (message: Pick<ConfirmationMessage, 'cmnd'>): message is { cmnd: 201 | 202 | 203 } =>
  message.cmnd !== undefined && portCommands.includes(message.cmnd);

/**
 * Stores what a device reported about itself. Only a device registered in the topic's organization is
 * changed; a redelivered message finds the properties already set and writes nothing; a concurrent
 * edit of the device (its version moved) is read again and the report applied on top.
 */
export async function applyDeviceReport(
  deps: Pick<DevicePorts, 'devices' | 'clock'>,
  report: { orgId: string; outcome: ConfirmationOutcome; message: ConfirmationMessage },
): Promise<'applied' | 'unchanged' | 'ignored'> {
  const changes = reportedProperties(report.outcome, report.message);
  if (!changes) return 'ignored';
  return withRetries(3, async () => {
    const device = await deps.devices.get(report.message.devID);
    if (!device || device.orgID !== report.orgId) return 'ignored';
    if (Object.entries(changes).every(([key, value]) => device.properties[key] === value)) return 'unchanged';
    written(
      await deps.devices.commit({
        devices: [
          {
            devId: device.devID,
            orgId: device.orgID,
            expectedVersion: versionOf(device),
            set: { properties: { ...device.properties, ...changes } },
          },
        ],
        floors: [],
        groups: [],
        live: [],
        now: deps.clock.now().toISOString(),
      }),
    );
    return 'applied';
  });
}
