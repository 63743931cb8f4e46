import { Button, SelectField } from '@aws-amplify/ui-react';
import { useState } from 'react';
import { BRIGHTNESS_RANGE, type DeviceView, POWER_NODE_PORTS, powerNodeLevel } from '@argentum/contracts';
import { sendControl } from '../../api/control';
import { CommandStatus, ReportedValue, shownValue } from './CommandStatus';
import { ControlSlider } from './ControlSlider';
import { PortValues } from './PortValues';
import { reportedValue } from './trackedCommand';
import { useTrackedCommand } from './useTrackedCommand';
import styles from './panels.module.css';

const LEVELS = [20, 60, 100] as const;

const initialPort = (device: DeviceView) => {
  const port = Number(device.port);
  return POWER_NODE_PORTS.some((p) => p.port === port) ? String(port) : '';
};

/**
 * Lights (power node): the port to drive (Select, Port-1, Port-2, Both), a brightness slider that
 * sends on release (0-100 %), and the levels 20 / 60 / 100.
 */
export function LightPanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const [port, setPort] = useState(() => initialPort(device));
  const { state, confirmed, send } = useTrackedCommand(device.devID);
  const reported = reportedValue(confirmed, device, 'bri');
  const level = typeof reported === 'number' ? powerNodeLevel(reported) : 0;
  const disabled = !canControl || port === '';
  const setBrightness = (value: number) =>
    send(value, () =>
      sendControl('setBrightness', {
        value,
        devID: device.devID,
        port: Number(port),
        devType: device.devType,
        ...(device.groupNumber !== undefined ? { groupNumber: device.groupNumber } : {}),
      }),
    );
  return (
    <section className={styles.panel} aria-label="Light brightness">
      <h3 className={styles.panelTitle}>Light brightness</h3>
      <SelectField
        label="Port"
        size="small"
        value={port}
        isDisabled={!canControl}
        onChange={(event) => setPort(event.target.value)}
      >
        <option value="">Select</option>
        {POWER_NODE_PORTS.map((p) => (
          <option key={p.port} value={String(p.port)}>
            {p.label}
          </option>
        ))}
      </SelectField>
      <ControlSlider
        label="Brightness"
        range={BRIGHTNESS_RANGE}
        value={shownValue(state, reported, 0)}
        unit="%"
        disabled={disabled}
        onCommit={setBrightness}
      />
      <div className={styles.row} role="group" aria-label="Levels">
        {LEVELS.map((value) => (
          <Button
            key={value}
            size="small"
            className={styles.levelButton}
            aria-pressed={level === value}
            isDisabled={disabled}
            onClick={() => setBrightness(value)}
          >
            {value}%
          </Button>
        ))}
      </div>
      <ReportedValue
        label="Brightness values"
        reported={reported}
        state={state}
        format={(v) => `${String(v)}%`}
      />
      <CommandStatus state={state} label="Brightness" />
      <PortValues device={device} />
    </section>
  );
}
