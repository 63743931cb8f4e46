import { useQuery } from '@tanstack/react-query';
import {
  COMFORT_ZONE_RANGE,
  type DeviceView,
  FAN_SPEED_RANGE,
  latestTimeOf,
  readingUnit,
  ROOM_UNIT_PORTS,
  VALVE_RANGE,
} from '@argentum/contracts';
import { formatReading } from '../../model/format';
import { controlQueries, sendControl } from '../../api/control';
import { CommandStatus, ReportedValue, shownValue } from './CommandStatus';
import { ControlSlider } from './ControlSlider';
import { reportedValue } from './trackedCommand';
import { useTrackedCommand } from './useTrackedCommand';
import styles from './panels.module.css';

const hasPoint = (device: DeviceView, point: string) => device.dataPoints.some((p) => p.dp === point);

/**
 * Room unit (fan and temperature): the temperature it reads and, where it reports one, its zone
 * temperature (°F); its fan speed (port 0, 1-10), valve (port 1, 0-10 step 0.1) and, where it has
 * one, its comfort zone (port 2, 15-30 °C step 0.5).
 */
export function RoomUnitPanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const temp = device.latest?.temp;
  const zoneTemp = device.latest?.zoneTemp;
  return (
    <section className={styles.panel} aria-label="Room unit">
      <h3 className={styles.panelTitle}>Room unit</h3>
      <dl className={styles.values} aria-label="Room unit readings">
        <div>
          <dt>Temperature</dt>
          <dd data-testid="temperature">{temp === undefined ? '–' : formatReading('temp', temp)}</dd>
        </div>
        {hasPoint(device, 'zoneTemp') && (
          <div>
            <dt>Zone temperature</dt>
            <dd data-testid="zone-temperature">
              {zoneTemp === undefined ? '–' : formatReading('zoneTemp', zoneTemp)}
            </dd>
          </div>
        )}
      </dl>
      <PortControl
        device={device}
        canControl={canControl}
        label="Fan speed"
        point="fan"
        port={ROOM_UNIT_PORTS.fan}
        range={FAN_SPEED_RANGE}
      />
      <PortControl
        device={device}
        canControl={canControl}
        label="Valve"
        point="valve"
        port={ROOM_UNIT_PORTS.valve}
        range={VALVE_RANGE}
      />
      {hasPoint(device, 'zone') && (
        <PortControl
          device={device}
          canControl={canControl}
          label="Comfort zone"
          point="zone"
          port={ROOM_UNIT_PORTS.zone}
          range={COMFORT_ZONE_RANGE}
          unit={readingUnit('zone')}
        />
      )}
    </section>
  );
}

interface PortControlProps {
  device: DeviceView;
  canControl: boolean;
  label: string;
  point: 'fan' | 'valve' | 'zone';
  port: number;
  range: { readonly min: number; readonly max: number; readonly step: number };
  /** Shown after the value (the comfort zone's °C). */
  unit?: string;
}

function PortControl({ device, canControl, label, point, port, range, unit }: PortControlProps) {
  const { data } = useQuery(
    controlQueries.state('getFanValveValue', device.devID, device.devType, port, latestTimeOf(device, point)),
  );
  const { state, confirmed, send } = useTrackedCommand(device.devID);
  const reported = reportedValue(confirmed, device, point, data);
  return (
    <div className={styles.panel} role="group" aria-label={label}>
      <ControlSlider
        label={label}
        range={range}
        value={shownValue(state, reported, range.min)}
        disabled={!canControl}
        {...(unit ? { unit: ` ${unit}` } : {})}
        onCommit={(value) =>
          send(value, () =>
            sendControl('setFanValveValue', { value, devID: device.devID, port, devType: device.devType }),
          )
        }
      />
      <ReportedValue
        label={`${label} values`}
        reported={reported}
        state={state}
        {...(unit ? { format: (v) => `${String(v)} ${unit}` } : {})}
      />
      <CommandStatus state={state} label={label} />
    </div>
  );
}
