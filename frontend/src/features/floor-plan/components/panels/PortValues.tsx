import { skipToken, useQuery } from '@tanstack/react-query';
import type { DeviceView } from '@argentum/contracts';
import { type PortReportView, portReportKey } from '../../api/deviceUpdates';
import { portValuesOf } from '../../model/format';
import styles from './panels.module.css';

/**
 * A power node's port values as it reported them (201 port one, 202 port two, 203 both), live, and
 * its last word on them since the floor was opened: 'Value changed to {val}' or 'Value change failed'.
 */
export function PortValues({ device }: { device: DeviceView }) {
  const { data: last } = useQuery<PortReportView>({
    queryKey: portReportKey(device.devID),
    queryFn: skipToken,
  });
  const ports = portValuesOf(device);
  if (ports.length === 0) return null;
  return (
    <div role="group" aria-label="Port values">
      <dl className={styles.values} aria-label="Port values reported">
        {ports.map(({ label, text }) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd data-testid={`port-value-${label}`}>{text}</dd>
          </div>
        ))}
      </dl>
      {last && (
        <p
          className={styles.status}
          data-state={last.report.outcome === 'success' ? 'confirmed' : 'failed'}
          role="status"
          aria-label="Port values status"
        >
          {last.text}
        </p>
      )}
    </div>
  );
}
