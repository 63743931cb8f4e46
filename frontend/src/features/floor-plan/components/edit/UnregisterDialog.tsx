import { Button } from '@aws-amplify/ui-react';
import type { DeviceView } from '@argentum/contracts';
import { useState } from 'react';
import { Dialog } from '../../../../shared/ui/Dialog';
import { sendControl } from '../../api/control';
import { CommandStatus } from '../panels/CommandStatus';
import { isBusy } from '../panels/trackedCommand';
import { useTrackedCommand } from '../panels/useTrackedCommand';
import { deviceLabel } from './deviceLabels';
import { DeviceFacts } from './DeviceFacts';
import styles from './edit.module.css';
import { removeRefusal } from './rules';

interface UnregisterDialogProps {
  device: DeviceView;
  /** Takes the device off the floor in the edit session (saved with Save). */
  onRemove: () => void;
  /** Move it with the arrow keys (keyboard and touch users). */
  onMove?: () => void;
  onClose: () => void;
}

/** Edit mode's popup of a placed device: Test asks the device to answer; Remove takes it off the floor. */
export function UnregisterDialog({ device, onRemove, onMove, onClose }: UnregisterDialogProps) {
  // Tracked like the drawer's Test device: 'Device Online', or 'Device Offline' without a reply.
  const test = useTrackedCommand(device.devID);
  const [refusal, setRefusal] = useState<string | null>(null);

  return (
    <Dialog
      open
      title={deviceLabel(device)}
      onClose={onClose}
      footer={
        <>
          {onMove && (
            <Button size="small" variation="link" onClick={onMove}>
              Move with arrow keys
            </Button>
          )}
          <Button
            size="small"
            isDisabled={isBusy(test.state)}
            onClick={() =>
              test.send('test', () =>
                sendControl('testDevice', { devID: device.devID, devType: device.devType }),
              )
            }
          >
            Test
          </Button>
          <Button
            size="small"
            variation="destructive"
            onClick={() => {
              const problem = removeRefusal(device);
              setRefusal(problem);
              if (!problem) onRemove();
            }}
          >
            Remove
          </Button>
        </>
      }
    >
      <DeviceFacts device={device} />
      <CommandStatus state={test.state} label="Test" />
      {refusal && (
        <p className={styles.error} role="alert">
          {refusal}
        </p>
      )}
    </Dialog>
  );
}
