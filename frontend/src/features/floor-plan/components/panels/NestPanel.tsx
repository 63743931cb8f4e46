import { Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type DeviceView, NEST_TEMPERATURE_STEP, THERMOSTAT_DIAL } from '@argentum/contracts';
import { controlQueries, integrationWrites } from '../../api/control';
import { IntegrationStatus } from './IntegrationStatus';
import { newerOf } from './trackedCommand';
import { ThermostatDial } from './ThermostatDial';
import { useIntegrationWrite } from './useIntegrationWrite';
import styles from './panels.module.css';

type Mode = 0 | 1;
type NestChange =
  { kind: 'temp'; temp: number; mode: Mode } | { kind: 'mode'; mode: Mode } | { kind: 'eco'; eco: boolean };

/**
 * The Nest-style thermostat: the dial (28 ticks, the device's range within 16-30 °C, step 0.5), mode
 * (0 cooling, 1 heating), the Home/Away state (Away while eco holds the temperatures) and Eco on/off.
 */
export function NestPanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const { data, isError, dataUpdatedAt } = useQuery(
    controlQueries.nest(device.devID, device.devType, device.floorID),
  );
  // The room as the thermostat last told it: the panel's read, or a newer reading (the vendor poller's,
  // another panel's) that reached the floor since.
  const room = (dp: 'ambientTemperatureCelsius' | 'ambientHumidityPercent') =>
    data ? newerOf(data[dp], dataUpdatedAt, device, dp) : undefined;
  const humidity = room('ambientHumidityPercent');
  const [draft, setDraft] = useState<number | null>(null);
  const write = useIntegrationWrite(device.devID, (change: NestChange) => {
    const { devID, devType } = device;
    if (change.kind === 'temp')
      return integrationWrites.nestTemperature(devID, devType, change.temp, change.mode);
    if (change.kind === 'mode') return integrationWrites.nestMode(devID, devType, change.mode);
    return integrationWrites.nestEco(devID, devType, change.eco);
  });
  const mode: Mode = data?.mode === 'HEAT' ? 1 : 0;
  const eco = data?.eco.mode === 'MANUAL_ECO';
  const setPoint = (mode === 1 ? data?.heatCelsius : data?.coolCelsius) ?? THERMOSTAT_DIAL.target;
  const target = draft ?? setPoint;
  const min = data?.min ?? THERMOSTAT_DIAL.min;
  const max = data?.max ?? THERMOSTAT_DIAL.max;
  const disabled = !canControl || data === undefined || write.isPending;
  const step = (by: number) =>
    setDraft(
      Math.min(max, Math.max(min, Math.round((target + by) / NEST_TEMPERATURE_STEP) * NEST_TEMPERATURE_STEP)),
    );
  const run = (change: NestChange) => write.mutate(change, { onSuccess: () => setDraft(null) });
  return (
    <section className={styles.panel} aria-label="Nest thermostat">
      <h3 className={styles.panelTitle}>Nest thermostat</h3>
      {isError && <p className={styles.muted}>The thermostat could not be read.</p>}
      <div className={styles.thermostat}>
        <ThermostatDial
          min={min}
          max={max}
          step={NEST_TEMPERATURE_STEP}
          target={target}
          ambient={data ? (room('ambientTemperatureCelsius') ?? null) : THERMOSTAT_DIAL.ambient}
          tone={eco ? 'eco' : mode === 1 ? 'heat' : 'cool'}
          disabled={disabled}
          onChange={setDraft}
        />
        <div className={styles.thermostatControls}>
          <div className={styles.row}>
            <Button
              size="small"
              aria-label="Lower the temperature"
              isDisabled={disabled}
              onClick={() => step(-NEST_TEMPERATURE_STEP)}
            >
              −
            </Button>
            <Button
              size="small"
              aria-label="Raise the temperature"
              isDisabled={disabled}
              onClick={() => step(NEST_TEMPERATURE_STEP)}
            >
              +
            </Button>
            <Button
              size="small"
              variation="primary"
              isDisabled={disabled || draft === null || draft === setPoint}
              onClick={() => run({ kind: 'temp', temp: target, mode })}
            >
              Set temperature
            </Button>
          </div>
          <div className={styles.row} role="group" aria-label="Mode">
            {(['Cooling', 'Heating'] as const).map((label, value) => (
              <Button
                key={label}
                size="small"
                className={styles.levelButton}
                aria-pressed={mode === value}
                isDisabled={disabled}
                onClick={() => mode !== value && run({ kind: 'mode', mode: value as Mode })}
              >
                {label}
              </Button>
            ))}
            <Button
              size="small"
              className={styles.levelButton}
              aria-pressed={eco}
              isDisabled={disabled}
              onClick={() => run({ kind: 'eco', eco: !eco })}
            >
              Eco
            </Button>
          </div>
          <dl className={styles.values}>
            <div>
              <dt>State</dt>
              <dd>{eco ? 'Away' : 'Home'}</dd>
            </div>
            <div>
              <dt>Humidity</dt>
              <dd>{humidity == null ? '–' : `${humidity}%`}</dd>
            </div>
            <div>
              <dt>Set point</dt>
              <dd>{setPoint.toFixed(1)} °C</dd>
            </div>
          </dl>
        </div>
      </div>
      <IntegrationStatus
        label="Thermostat"
        pending={write.isPending}
        message={write.data?.message}
        failed={write.isError}
      />
    </section>
  );
}
