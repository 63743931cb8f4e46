import { Loader } from '@aws-amplify/ui-react';
import styles from './FullPageLoader.module.css';

export function FullPageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <div className={styles.root} role="status" aria-live="polite">
      <Loader size="large" ariaLabel={label} />
    </div>
  );
}
