import { Button } from '@aws-amplify/ui-react';
import { type FormEvent, useState } from 'react';
import {
  type ControlValue,
  type DataPointView,
  type DeviceView,
  formatValue,
  readingUnit,
} from '@argentum/contracts';
import { sendControl } from '../../api/control';
import { CommandStatus, ReportedValue } from './CommandStatus';
import { reportedValue } from './trackedCommand';
import { useTrackedCommand } from './useTrackedCommand';
import styles from './panels.module.css';

/** BACnet: each writable point (not read-only) takes a value (setbacnetinfo, key = the point). */
export function BacnetPanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const writable = device.dataPoints.filter((point) => point.readonly !== true);
  return (
    <section className={styles.panel} aria-label="BACnet values">
      <h3 className={styles.panelTitle}>BACnet values</h3>
      {writable.length === 0 && <p className={styles.muted}>This device has no writable points.</p>}
      {writable.map((point) => (
        <BacnetPoint key={point.dp} device={device} point={point} canControl={canControl} />
      ))}
    </section>
  );
}

const withUnit = (text: string, unit: string) => (unit ? `${text} ${unit}` : text);

function BacnetPoint({
  device,
  point,
  canControl,
}: {
  device: DeviceView;
  point: DataPointView;
  canControl: boolean;
}) {
  const { state, confirmed, send } = useTrackedCommand(device.devID);
  const latest = device.latest?.[point.dp];
  const [draft, setDraft] = useState(latest === undefined ? '' : String(latest));
  const name = point.dn ?? point.dp;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const text = draft.trim();
    if (text === '') return;
    const value = Number.isFinite(Number(text)) ? Number(text) : text;
    send(value, () =>
      sendControl('setbacnetinfo', {
        value,
        devID: device.devID,
        port: device.port ?? 0,
        key: point.dp,
        devType: device.devType,
      }),
    );
  };
  return (
    <form className={styles.row} onSubmit={submit} aria-label={name}>
      <label className={styles.row}>
        <span className={styles.pointName}>{name}</span>
        <input
          className={styles.input}
          value={draft}
          maxLength={64}
          disabled={!canControl}
          onChange={(event) => setDraft(event.target.value)}
        />
      </label>
      <Button size="small" type="submit" isDisabled={!canControl || draft.trim() === ''}>
        Send
      </Button>
      <ReportedValue
        label={`${name} values`}
        reported={reportedValue(confirmed, device, point.dp)}
        state={state}
        format={(value: ControlValue) => withUnit(formatValue(value), readingUnit(point.dp))}
      />
      <CommandStatus state={state} label={name} />
    </form>
  );
}
