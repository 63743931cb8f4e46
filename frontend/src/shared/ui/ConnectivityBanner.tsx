import { Alert } from '@aws-amplify/ui-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { BACK_ONLINE_BANNER_MS, BACK_ONLINE_TEXT, OFFLINE_TEXT } from '@argentum/events/contracts';
import { realtimeChannel } from '../realtime/channel';
import styles from './ConnectivityBanner.module.css';

function subscribe(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  const stopWatching = realtimeChannel.onStatus(listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
    stopWatching();
  };
}

/** Online: the browser has a network and the real-time channel (while it runs) is connected. */
const isOnline = (): boolean => navigator.onLine && realtimeChannel.status !== 'lost';

/**
 * Warns while the browser is offline or its real-time connection is lost (live values, confirmations
 * and notifications stop), and confirms for a few seconds once both are back.
 */
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
