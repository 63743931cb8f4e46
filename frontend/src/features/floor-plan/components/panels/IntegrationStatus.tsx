import { Loader } from '@aws-amplify/ui-react';
import styles from './panels.module.css';

/** A vendor write's state: 'Sending…' while the vendor works, then its documented text. */
export function IntegrationStatus({
  label,
  pending,
  message,
  failed,
}: {
  label: string;
  pending: boolean;
  message: string | undefined;
  failed: boolean;
}) {
  if (pending) {
    return (
      <p className={styles.status} data-state="pending" role="status" aria-label={`${label} status`}>
        <Loader size="small" ariaLabel="Waiting for the device" />
        Sending…
      </p>
    );
  }
  if (failed) {
    return (
      <p className={styles.status} data-state="failed" role="status" aria-label={`${label} status`}>
        Not changed.
      </p>
    );
  }
  if (!message) return null;
  return (
    <p className={styles.status} data-state="confirmed" role="status" aria-label={`${label} status`}>
      {message}
    </p>
  );
}
