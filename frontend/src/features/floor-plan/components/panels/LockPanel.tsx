import { Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import {
  type ControlValue,
  type DeviceView,
  latestTimeOf,
  lockStateText,
  LOCK_VALUE,
  UNLOCK_VALUE,
} from '@argentum/contracts';
import { controlQueries, sendControl } from '../../api/control';
import { CommandStatus, ReportedValue } from './CommandStatus';
import { reportedValue } from './trackedCommand';
import { useTrackedCommand } from './useTrackedCommand';
import styles from './panels.module.css';

const lockState = (value: ControlValue | undefined) =>
  value === undefined ? undefined : lockStateText((Array.isArray(value) ? value[0] : Number(value)) === 1);

/** A lock: Lock sends [1,0,0,0], Unlock [0,0,0,0]; the state is what the lock last reported. */
export function LockPanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const port = device.port ?? 0;
  const { data } = useQuery(
    controlQueries.state('getLockValue', device.devID, device.devType, port, latestTimeOf(device, 'lock')),
  );
  const { state, confirmed, send } = useTrackedCommand(device.devID);
  const reported = reportedValue(confirmed, device, 'lock', data);
  const set = (value: readonly number[]) =>
    send([...value], () =>
      sendControl('setFanValveValue', {
        value: [...value] as (0 | 1)[],
        devID: device.devID,
        port,
        devType: device.devType,
      }),
    );
  const busy = state.phase === 'sending' || state.phase === 'pending';
  return (
    <section className={styles.panel} aria-label="Lock">
      <h3 className={styles.panelTitle}>Lock</h3>
      <div className={styles.row}>
        <Button size="small" isDisabled={!canControl || busy} onClick={() => set(LOCK_VALUE)}>
          Lock
        </Button>
        <Button size="small" isDisabled={!canControl || busy} onClick={() => set(UNLOCK_VALUE)}>
          Unlock
        </Button>
      </div>
      <ReportedValue
        label="Lock values"
        reported={reported}
        state={state}
        format={(v) => lockState(v) ?? '–'}
      />
      <CommandStatus state={state} label="Lock" />
    </section>
  );
}
