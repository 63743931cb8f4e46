import type { CSSProperties } from 'react';
import type { DeviceView } from '@argentum/contracts';
import { OCCUPIED_COLOUR, TYPE_COLOURS, typeName } from '../model/deviceKinds';
import styles from './Legend.module.css';

/** The legend footer: the device kinds on the floor; motion sensors show Unoccupied and Occupied. */
export function Legend({ devices }: { devices: readonly DeviceView[] }) {
  const types = [...new Set(devices.map((device) => device.devType))].sort((a, b) => a - b);
  if (types.length === 0) return null;
  const swatch = (colour: string | undefined) => ({ '--colour': colour ?? '#475569' }) as CSSProperties;
  return (
    <footer className={styles.legend} role="group" aria-label="Legend">
      <ul>
        {types.flatMap((type) =>
          type === 4
            ? [
                <li key="4-unoccupied">
                  <span className={styles.swatch} style={swatch(TYPE_COLOURS[4])} />
                  {typeName(4)}: Unoccupied
                </li>,
                <li key="4-occupied">
                  <span className={styles.swatch} style={swatch(OCCUPIED_COLOUR)} />
                  {typeName(4)}: Occupied
                </li>,
              ]
            : [
                <li key={type}>
                  <span className={styles.swatch} style={swatch(TYPE_COLOURS[type])} />
                  {typeName(type)}
                </li>,
              ],
        )}
        <li>
          <span className={styles.swatch} data-offline="" />
          Offline
        </li>
        {devices.some((device) => device.lastSeen === undefined) && (
          <li>
            <span className={styles.swatch} data-unregistered="" />
            Unregistered
          </li>
        )}
      </ul>
    </footer>
  );
}
