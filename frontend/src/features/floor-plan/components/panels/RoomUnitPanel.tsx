import { useQuery } from '@tanstack/react-query';
import { type DeviceView, FAN_SPEED_RANGE, VALVE_RANGE } from '@argentum/events/contracts';
import { formatReading } from '../../model/format';
import { controlQueries, sendControl } from '../../api/control';
import { CommandStatus, ReportedValue, shownValue } from './CommandStatus';
import { ControlSlider } from './ControlSlider';
import { useTrackedCommand } from './useTrackedCommand';
import styles from './panels.module.css';

/** Room unit: the temperature it reads, its fan speed (port 0, 1-10) and valve (port 1, 0-10 step 0.1). */
export function RoomUnitPanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const temp = device.latest?.temp;
  return (
    <section className={styles.panel} aria-label="Room unit">
      <h3 className={styles.panelTitle}>Room unit</h3>
      <p className={styles.muted}>Temperature: {temp === undefined ? '–' : formatReading('temp', temp)}</p>
      <PortControl
        device={device}
        canControl={canControl}
        label="Fan speed"
        point="fan"
        port={0}
        range={FAN_SPEED_RANGE}
      />
      <PortControl
        device={device}
        canControl={canControl}
        label="Valve"
        point="valve"
        port={1}
        range={VALVE_RANGE}
      />
    </section>
  );
}

interface PortControlProps {
  device: DeviceView;
  canControl: boolean;
  label: string;
  point: 'fan' | 'valve';
  port: number;
  range: { readonly min: number; readonly max: number; readonly step: number };
}

function PortControl({ device, canControl, label, point, port, range }: PortControlProps) {
  const { data } = useQuery(controlQueries.state('getFanValveValue', device.devID, device.devType, port));
  const { state, confirmed, send } = useTrackedCommand(device.devID);
  const reported = data?.val ?? confirmed ?? data?.latest?.[point] ?? device.latest?.[point];
  return (
    <div className={styles.panel} role="group" aria-label={label}>
      <ControlSlider
        label={label}
        range={range}
        value={shownValue(state, reported, range.min)}
        disabled={!canControl}
        onCommit={(value) =>
          send(value, () =>
            sendControl('setFanValveValue', { value, devID: device.devID, port, devType: device.devType }),
          )
        }
      />
      <ReportedValue label={`${label} values`} reported={reported} state={state} />
      <CommandStatus state={state} label={label} />
    </div>
  );
}
