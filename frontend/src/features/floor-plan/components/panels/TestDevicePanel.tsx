import { Button } from '@aws-amplify/ui-react';
import type { DeviceView } from '@argentum/contracts';
import { sendControl } from '../../api/control';
import { CommandStatus } from './CommandStatus';
import { isBusy } from './trackedCommand';
import { useTrackedCommand } from './useTrackedCommand';
import styles from './panels.module.css';

/** Test device: the device answers 'Device Online', or 'Device Offline' after 5 s without a reply. */
export function TestDevicePanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const { state, send } = useTrackedCommand(device.devID);
  return (
    <section className={styles.panel} aria-label="Test device">
      <div className={styles.row}>
        <Button
          size="small"
          isDisabled={!canControl || isBusy(state)}
          onClick={() =>
            send('test', () => sendControl('testDevice', { devID: device.devID, devType: device.devType }))
          }
        >
          Test device
        </Button>
        <CommandStatus state={state} label="Test" />
      </div>
    </section>
  );
}
