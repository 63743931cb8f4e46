import { Button } from '@aws-amplify/ui-react';
import type { DeviceView } from '@argentum/events/contracts';
import { useState } from 'react';
import { Dialog } from '../../../../shared/ui/Dialog';
import { testDevice, type TestOutcome } from '../../api/editing';
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
  const [testing, setTesting] = useState(false);
  const [outcome, setOutcome] = useState<TestOutcome | null>(null);
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
            isLoading={testing}
            loadingText="Testing…"
            onClick={async () => {
              setTesting(true);
              setOutcome(await testDevice(device));
              setTesting(false);
            }}
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
      {outcome && (
        <p className={outcome.ok ? styles.success : styles.error} role="status">
          {outcome.message}
        </p>
      )}
      {refusal && (
        <p className={styles.error} role="alert">
          {refusal}
        </p>
      )}
    </Dialog>
  );
}
