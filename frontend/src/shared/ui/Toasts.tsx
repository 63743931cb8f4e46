import { Alert } from '@aws-amplify/ui-react';
import { useLayoutEffect, useRef } from 'react';
import { dismissToast, useToasts } from './toastStore';
import styles from './Toasts.module.css';

/**
 * Renders the toasts raised through showToast(); mounted once at the app root. The region is a manual
 * popover, so it sits in the top layer: a toast raised from a modal dialog shows above the dialog and
 * its backdrop instead of dimmed behind them.
 */
export function Toasts() {
  const toasts = useToasts();
  const region = useRef<HTMLDivElement>(null);

  useLayoutEffect(() => {
    const element = region.current;
    if (!element || typeof element.showPopover !== 'function') return;
    const open = element.matches(':popover-open');
    if (toasts.length === 0) {
      if (open) element.hidePopover();
      return;
    }
    // Showing again moves the region to the top of the top layer, above a dialog opened since.
    if (open) element.hidePopover();
    element.showPopover();
  }, [toasts]);

  return (
    <div ref={region} popover="manual" className={styles.region} role="status" aria-live="polite">
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
