import { Command, type ConfirmationMessage, type ConfirmationOutcome } from '@argentum/contracts/messaging';
import { type PortName, type PortValues, versionOf } from './device';
import type { DeviceStore } from './ports';
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

/** What storing a device's word about itself needs. */
export interface DeviceReportPorts {
  devices: Pick<DeviceStore, 'get' | 'commit' | 'recordPortReport'>;
  clock: { now(): Date };
}

/**
 * What became of a device's word about itself: stored ('applied'), found stored already ('unchanged':
 * a redelivery), older than what every port it names holds ('stale'), or nothing to store ('ignored').
 * `ports`: the reported port values that are the ports' current ones (a report may win some ports only).
 */
export type DeviceReportOutcome = {
  result: 'applied' | 'unchanged' | 'stale' | 'ignored';
  ports?: PortValues;
};

/**
 * Stores what a device reported about itself. Only a device registered in the topic's organization is
 * changed. Port values are kept per port by the report's time `at` (the broker's): an older report,
 * retried or delivered late, never replaces a newer one's value, and the same report again finds its
 * values stored and writes nothing. Other properties (pairing mode): a redelivered message finds them
 * set already and writes nothing; a concurrent edit of the device (its version moved) is read again
 * and the report applied on top.
 */
export async function applyDeviceReport(
  deps: DeviceReportPorts,
  report: { orgId: string; outcome: ConfirmationOutcome; message: ConfirmationMessage; at: number },
): Promise<DeviceReportOutcome> {
  const ports = report.outcome === 'success' ? reportedPortValues(report.message) : undefined;
  if (ports) return applyPortReport(deps, { ...report, ports });
  const changes = reportedProperties(report.outcome, report.message);
  if (!changes) return { result: 'ignored' };
  return withRetries(3, async (): Promise<DeviceReportOutcome> => {
    const device = await deps.devices.get(report.message.devID);
    if (!device || device.orgID !== report.orgId) return { result: 'ignored' };
    if (Object.entries(changes).every(([key, value]) => device.properties[key] === value))
      return { result: 'unchanged' };
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
    return { result: 'applied' };
  });
}

async function applyPortReport(
  deps: DeviceReportPorts,
  report: { orgId: string; message: ConfirmationMessage; at: number; ports: PortValues },
): Promise<DeviceReportOutcome> {
  const { orgId, at, ports } = report;
  const devId = report.message.devID;
  const device = await deps.devices.get(devId);
  if (!device || device.orgID !== orgId) return { result: 'ignored' };
  // This very report again (same values, same broker time): stored already, its values current.
  const stored = (Object.entries(ports) as [PortName, 0 | 1][]).every(
    ([port, value]) => device.properties[port] === value && device.portReportedAt?.[port] === at,
  );
  if (stored) return { result: 'unchanged', ports };
  // The store decides per port, in the write's condition: what was read may be old by now.
  const current = await deps.devices.recordPortReport({
    devId,
    orgId,
    at,
    ports,
    now: deps.clock.now().toISOString(),
  });
  if (!current) return { result: 'ignored' };
  return Object.keys(current).length > 0 ? { result: 'applied', ports: current } : { result: 'stale' };
}
