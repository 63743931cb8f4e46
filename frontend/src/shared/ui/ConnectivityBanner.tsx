import { Alert } from '@aws-amplify/ui-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { BACK_ONLINE_BANNER_MS, BACK_ONLINE_TEXT, OFFLINE_TEXT } from '@argentum/events/contracts';
import styles from './ConnectivityBanner.module.css';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

const isOnline = (): boolean => navigator.onLine;

/** Warns while the browser is offline and confirms for a few seconds once it is back. */
export function ConnectivityBanner() {
  const online = useSyncExternalStore(subscribe, isOnline, () => true);
  const [wasOffline, setWasOffline] = useState(false);
  const [showRestored, setShowRestored] = useState(false);

  // Adjusting state while rendering (not in an effect) so the two banners never both show.
  if (!online && !wasOffline) {
    setWasOffline(true);
    setShowRestored(false);
  } else if (online && wasOffline) {
    setWasOffline(false);
    setShowRestored(true);
  }

  useEffect(() => {
    if (!showRestored) return;
    const timer = setTimeout(() => setShowRestored(false), BACK_ONLINE_BANNER_MS);
    return () => clearTimeout(timer);
  }, [showRestored]);

  if (online && !showRestored) return null;
  return (
    <div className={styles.banner} role={online ? 'status' : 'alert'}>
      <Alert variation={online ? 'success' : 'error'} hasIcon>
        {online ? BACK_ONLINE_TEXT : OFFLINE_TEXT}
      </Alert>
    </div>
  );
}
