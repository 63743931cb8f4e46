import { Alert } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import {
  type ControlKind,
  controlKindOf,
  DEVICE_OFFLINE_HINT_TEXT,
  type DeviceView,
  PAIRING_FAILED_TEXT,
  PRESENCE_REASON_TEXT,
} from '@argentum/contracts';
import { DeviceType } from '@argentum/contracts';
import { BacnetPanel } from './BacnetPanel';
import { CommandHistory } from './CommandHistory';
import { EcobeePanel } from './EcobeePanel';
import { LightPanel } from './LightPanel';
import { LockPanel } from './LockPanel';
import { MotionPanel } from './MotionPanel';
import { NestPanel } from './NestPanel';
import { RollerShadesPanel } from './RollerShadesPanel';
import { RoomUnitPanel } from './RoomUnitPanel';
import { RyseShadesPanel } from './RyseShadesPanel';
import { TestDevicePanel } from './TestDevicePanel';
import styles from './panels.module.css';

export type PanelKind = Exclude<ControlKind, 'switch'>;

/** The control panel a device gets (its control kind, as the server checks commands); null: none. */
function panelKind(device: Pick<DeviceView, 'devType' | 'connDev' | 'dataPoints'>): PanelKind | null {
  const kind = controlKindOf(device);
  return kind === 'switch' ? null : kind;
}

/** Third-party devices answer through their vendor's cloud, not the platform's commands. */
const takesCommands = (device: DeviceView) => device.devType !== DeviceType.thirdParty;

interface DeviceControlsProps {
  device: DeviceView;
  /** Role above 0 in the device's organization (the server refuses the others anyway). */
  canControl: boolean;
}

/** The selected device's controls: its panel, Test device, the pairing flag and its command history. */
export function DeviceControls({ device, canControl }: DeviceControlsProps) {
  const props = { device, canControl };
  const panels: Record<PanelKind, () => ReactNode> = {
    light: () => <LightPanel {...props} />,
    lock: () => <LockPanel {...props} />,
    roomUnit: () => <RoomUnitPanel {...props} />,
    rollerShades: () => <RollerShadesPanel {...props} />,
    ryseShades: () => <RyseShadesPanel {...props} />,
    bacnet: () => <BacnetPanel {...props} />,
    motion: () => <MotionPanel device={device} />,
    nest: () => <NestPanel {...props} />,
    ecobee: () => <EcobeePanel {...props} />,
  };
  const kind = panelKind(device);
  return (
    <div className={styles.controls} data-panel={kind ?? 'none'}>
      {takesCommands(device) &&
        device.presence?.online === false &&
        device.presence.reason !== 'never-seen' && (
          // Presence already knows: a command would be answered 'Device Offline' at once.
          <Alert variation="warning" data-presence="offline">
            {DEVICE_OFFLINE_HINT_TEXT} (It {PRESENCE_REASON_TEXT[device.presence.reason]}
            {device.presence.since > 0 ? `, ${new Date(device.presence.since).toLocaleString()}` : ''}.)
          </Alert>
        )}
      {device.properties.pairingMode === false && (
        // A pairing failure (command 17) flips the device's pairing mode flag.
        <Alert variation="warning">{PAIRING_FAILED_TEXT}</Alert>
      )}
      {kind && panels[kind]()}
      {takesCommands(device) && <TestDevicePanel {...props} />}
      {/* Third-party writes are tracked commands too: their history is the vendor's answers. */}
      <CommandHistory devID={device.devID} connDev={device.connDev} />
    </div>
  );
}
