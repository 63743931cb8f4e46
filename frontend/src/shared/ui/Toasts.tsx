import { Alert } from '@aws-amplify/ui-react';
import { dismissToast, useToasts } from './toastStore';
import styles from './Toasts.module.css';

/** Renders the toasts raised through showToast(); mounted once at the app root. */
export function Toasts() {
  const toasts = useToasts();
  return (
    <div className={styles.region} role="status" aria-live="polite">
      {toasts.map((toast) => (
        <Alert
          key={toast.id}
          className={styles.toast}
          variation={toast.variation}
          isDismissible
          dismissButtonLabel="Dismiss notification"
          onDismiss={() => dismissToast(toast.id)}
        >
          {toast.message}
        </Alert>
      ))}
    </div>
  );
}
