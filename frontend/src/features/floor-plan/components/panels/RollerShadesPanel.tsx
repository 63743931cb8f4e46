import { Button } from '@aws-amplify/ui-react';
import {
  type ControlValue,
  type DeviceView,
  SHADE_RANGE,
  SHADES_DOWN_VALUE,
  SHADES_UP_VALUE,
} from '@argentum/contracts';
import { sendControl } from '../../api/control';
import { CommandStatus, ReportedValue, shownValue } from './CommandStatus';
import { ControlSlider } from './ControlSlider';
import { reportedValue } from './trackedCommand';
import { useTrackedCommand } from './useTrackedCommand';
import styles from './panels.module.css';

const MOVES = [
  { label: 'Slide Up', value: SHADES_UP_VALUE },
  { label: 'Pause', value: SHADES_DOWN_VALUE },
  { label: 'Slide Down', value: SHADES_DOWN_VALUE },
] as const;

const describe = (value: ControlValue) =>
  Array.isArray(value) ? (value[0] === 1 ? 'Up' : 'Paused / Down') : `${String(value)}%`;

/** Roller shades: Slide Up [1,1,1,1], Pause and Slide Down [0,0,0,0], or a position 0-100. */
export function RollerShadesPanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const { state, confirmed, send } = useTrackedCommand(device.devID);
  const reported = reportedValue(confirmed, device, 'shade');
  const port = device.port ?? 0;
  const move = (value: readonly number[] | number) => {
    const sent: ControlValue = typeof value === 'number' ? value : [...value];
    send(sent, () =>
      sendControl('setRollerShadesValue', {
        value: typeof value === 'number' ? value : ([...value] as (0 | 1)[]),
        devID: device.devID,
        port,
        devType: device.devType,
      }),
    );
  };
  return (
    <section className={styles.panel} aria-label="Roller shades">
      <h3 className={styles.panelTitle}>Roller shades</h3>
      <div className={styles.row}>
        {MOVES.map(({ label, value }) => (
          <Button key={label} size="small" isDisabled={!canControl} onClick={() => move(value)}>
            {label}
          </Button>
        ))}
      </div>
      <ControlSlider
        label="Shade position"
        range={SHADE_RANGE}
        value={shownValue(state, reported, 0)}
        unit="%"
        disabled={!canControl}
        onCommit={move}
      />
      <ReportedValue label="Shade values" reported={reported} state={state} format={describe} />
      <CommandStatus state={state} label="Shades" />
    </section>
  );
}
