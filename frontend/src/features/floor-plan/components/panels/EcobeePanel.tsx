import { Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import type { DeviceView, EcobeeStatsAnswer } from '@argentum/contracts';
import { controlQueries, integrationWrites } from '../../api/control';
import { ControlSlider } from './ControlSlider';
import { IntegrationStatus } from './IntegrationStatus';
import { newerOf } from './trackedCommand';
import { useIntegrationWrite } from './useIntegrationWrite';
import styles from './panels.module.css';

const STEP = 0.5;
/** The panel's limits: the thermostat's own range, floored (specification section 5). */
const limits = (range: [number, number]) => ({
  min: Math.floor(range[0]),
  max: Math.floor(range[1]),
  step: STEP,
});

type EcobeeChange = { mode: string; heatTemp: number; coolTemp: number };

/**
 * The Ecobee-style thermostat: temperature and humidity, the mode (cooling / heating; others shown as
 * they are) and the heat and cool set points, each sent on release with the other kept.
 */
export function EcobeePanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const { data, isError, dataUpdatedAt } = useQuery(controlQueries.ecobee(device.devID, device.devType));
  // The room as the thermostat last told it: the panel's read, or a newer reading since (newerOf).
  const room = (dp: 'actualTemperature' | 'actualHumidity') =>
    data ? newerOf(data[dp], dataUpdatedAt, device, dp) : undefined;
  const temperature = room('actualTemperature');
  const humidity = room('actualHumidity');
  const write = useIntegrationWrite(device.devID, (change: EcobeeChange) =>
    integrationWrites.ecobee(device.devID, device.devType, change),
  );
  const disabled = !canControl || data === undefined || write.isPending;
  const change = (stats: EcobeeStatsAnswer, next: Partial<EcobeeChange>) =>
    write.mutate({ mode: stats.hvacMode, heatTemp: stats.desiredHeat, coolTemp: stats.desiredCool, ...next });
  return (
    <section className={styles.panel} aria-label="Ecobee thermostat">
      <h3 className={styles.panelTitle}>Ecobee thermostat</h3>
      {isError && <p className={styles.muted}>The thermostat could not be read.</p>}
      <dl className={styles.values}>
        <div>
          <dt>Temperature</dt>
          <dd>{temperature === undefined ? '–' : `${temperature.toFixed(1)} °C`}</dd>
        </div>
        <div>
          <dt>Humidity</dt>
          <dd>{humidity === undefined ? '–' : `${humidity}%`}</dd>
        </div>
        <div>
          <dt>Mode</dt>
          <dd>{data?.hvacMode ?? '–'}</dd>
        </div>
      </dl>
      <div className={styles.row} role="group" aria-label="Mode">
        {(
          [
            ['Cooling', 'cool'],
            ['Heating', 'heat'],
          ] as const
        ).map(([label, mode]) => (
          <Button
            key={mode}
            size="small"
            className={styles.levelButton}
            aria-pressed={data?.hvacMode === mode}
            isDisabled={disabled}
            onClick={() => data && data.hvacMode !== mode && change(data, { mode })}
          >
            {label}
          </Button>
        ))}
      </div>
      {data && (
        <>
          <ControlSlider
            label="Heat set point"
            range={limits(data.desiredHeatRange)}
            value={write.isPending ? (write.variables?.heatTemp ?? data.desiredHeat) : data.desiredHeat}
            unit=" °C"
            disabled={disabled}
            onCommit={(heatTemp) => change(data, { heatTemp })}
          />
          <ControlSlider
            label="Cool set point"
            range={limits(data.desiredCoolRange)}
            value={write.isPending ? (write.variables?.coolTemp ?? data.desiredCool) : data.desiredCool}
            unit=" °C"
            disabled={disabled}
            onCommit={(coolTemp) => change(data, { coolTemp })}
          />
        </>
      )}
      <IntegrationStatus
        label="Thermostat"
        pending={write.isPending}
        message={write.data?.message}
        failed={write.isError}
      />
    </section>
  );
}
