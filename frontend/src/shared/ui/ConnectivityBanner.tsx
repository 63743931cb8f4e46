import { Alert } from '@aws-amplify/ui-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { BACK_ONLINE_BANNER_MS, BACK_ONLINE_TEXT, OFFLINE_TEXT } from '@argentum/contracts';
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

/**
 * 'online'; 'offline' (the browser has no network); 'lost' (the real-time channel lost its connection
 * and is reconnecting); 'stopped' (the channel was stopped: signed out, nothing to come back to).
 */
type Connectivity = 'online' | 'offline' | 'lost' | 'stopped';
const connectivity = (): Connectivity =>
  !navigator.onLine
    ? 'offline'
    : realtimeChannel.status === 'lost'
      ? 'lost'
      : realtimeChannel.status === 'off'
        ? 'stopped'
        : 'online';

/**
 * Warns while the browser is offline or its real-time connection is lost (live values, confirmations
 * and notifications stop), and confirms for a few seconds once both are back. A channel stopped while
 * it was reconnecting (the user signed out) clears the warning without claiming it is back.
 */
export function ConnectivityBanner() {
  const state = useSyncExternalStore(subscribe, connectivity, () => 'online' as const);
  const online = state === 'online' || state === 'stopped';
  // What the warning was for: the browser's network, or the channel's connection.
  const [wasOffline, setWasOffline] = useState<false | 'offline' | 'lost'>(false);
  const [showRestored, setShowRestored] = useState(false);

  // Adjusting state while rendering (not in an effect) so the two banners never both show.
  const warnedFor = state === 'offline' || wasOffline === 'offline' ? 'offline' : 'lost';
  if (!online && wasOffline !== warnedFor) {
    setWasOffline(warnedFor);
    setShowRestored(false);
  } else if (online && wasOffline) {
    setWasOffline(false);
    setShowRestored(state === 'online' || wasOffline === 'offline');
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
