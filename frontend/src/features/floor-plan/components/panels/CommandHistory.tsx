import { useQuery } from '@tanstack/react-query';
import { type CommandView, formatValue } from '@argentum/contracts';
import { formatDateTime } from '../../../../shared/format/date';
import { controlQueries } from '../../api/control';
import styles from './panels.module.css';

const CALL_NAMES: Record<CommandView['call'], string> = {
  setBrightness: 'Brightness',
  setRollerShadesValue: 'Shades',
  setFanValveValue: 'Value',
  setbacnetinfo: 'BACnet',
  testDevice: 'Test',
  setValueOnDevices: 'Value (several devices)',
  setRyseGearPosition: 'Shade position',
  setGoogleThermostatTemp: 'Set point',
  setGoogleThermostatMode: 'Mode',
  setGoogleThermostatEco: 'Eco',
  EcobeeSetTemperatureAndMode: 'Set points',
};

const what = (command: CommandView, connDev: string | undefined) => {
  if (command.call === 'testDevice') return CALL_NAMES.testDevice;
  if (command.call === 'EcobeeSetTemperatureAndMode') {
    return `${CALL_NAMES[command.call]}: ${formatValue(command.val)} °C, ${command.key ?? ''}`;
  }
  if (command.call === 'setGoogleThermostatTemp') {
    return `${CALL_NAMES[command.call]} ${command.key ?? ''}: ${formatValue(command.val)} °C`;
  }
  if (connDev === 'lock' && Array.isArray(command.val))
    return `${command.val[0] === 1 ? 'Lock' : 'Unlock'} ${formatValue(command.val)}`;
  return `${CALL_NAMES[command.call]}${command.key ? ` ${command.key}` : ''}: ${formatValue(command.val)}`;
};

/** The time today (hh:mm:ss), else the date and time as the specification shows them (dd-mm-yyyy hh:mm). */
const when = (iso: string) => {
  const at = new Date(iso);
  return at.toDateString() === new Date().toDateString()
    ? at.toLocaleTimeString('en-GB', { hour12: false })
    : formatDateTime(at);
};

/** The device's commands, newest first: who asked what, when, and how it ended (with its text). */
export function CommandHistory({ devID, connDev }: { devID: string; connDev?: string }) {
  const { data, isPending, isError } = useQuery(controlQueries.history(devID));
  return (
    <section className={styles.panel} aria-label="Command history">
      <h3 className={styles.panelTitle}>Command history</h3>
      {isPending ? (
        <p className={styles.muted}>Loading…</p>
      ) : isError ? (
        <p className={styles.muted}>The history could not be read.</p>
      ) : data.commands.length === 0 ? (
        <p className={styles.muted}>No commands yet.</p>
      ) : (
        <table className={styles.history}>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Outcome</th>
            </tr>
          </thead>
          <tbody>
            {data.commands.slice(0, 10).map((command) => (
              <tr key={command.commandId}>
                <td>{when(command.requestedAt)}</td>
                <td>{command.requestedBy.userName}</td>
                <td>{what(command, connDev)}</td>
                <td className={styles.outcome} data-status={command.status}>
                  {command.text ?? command.status}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
