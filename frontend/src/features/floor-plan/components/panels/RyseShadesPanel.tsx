import { useQuery } from '@tanstack/react-query';
import { type DeviceView, SHADE_RANGE } from '@argentum/contracts';
import { controlQueries, integrationWrites } from '../../api/control';
import { ControlSlider } from './ControlSlider';
import { IntegrationStatus } from './IntegrationStatus';
import { useIntegrationWrite } from './useIntegrationWrite';
import styles from './panels.module.css';

/** Ryse SmartShades: the position (0 open - 100 closed, step 1) through the Ryse bridge. */
export function RyseShadesPanel({ device, canControl }: { device: DeviceView; canControl: boolean }) {
  const { data, isError } = useQuery(controlQueries.rysePosition(device.devID, device.devType));
  const write = useIntegrationWrite(device.devID, (value: number) =>
    integrationWrites.ryse(device.devID, device.devType, value),
  );
  return (
    <section className={styles.panel} aria-label="Shades">
      <h3 className={styles.panelTitle}>Ryse shades</h3>
      {isError && <p className={styles.muted}>The shades could not be read.</p>}
      <ControlSlider
        label="Shade position"
        range={SHADE_RANGE}
        value={write.variables ?? data?.position ?? 0}
        unit="%"
        disabled={!canControl || data === undefined || write.isPending}
        onCommit={(value) => write.mutate(value)}
      />
      <p className={styles.muted}>Reported position: {data ? `${data.position}%` : '–'}</p>
      <IntegrationStatus
        label="Shades"
        pending={write.isPending}
        message={write.data?.message}
        failed={write.isError}
      />
    </section>
  );
}
