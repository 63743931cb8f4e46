import { Alert } from '@aws-amplify/ui-react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import {
  BACK_ONLINE_BANNER_MS,
  BACK_ONLINE_TEXT,
  LIVE_BACK_TEXT,
  LIVE_LOST_TEXT,
  OFFLINE_TEXT,
} from '@argentum/contracts';
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

/** What a warning was for: the browser's network, or the real-time channel's connection. */
type Outage = 'offline' | 'lost';
const WARNING: Record<Outage, string> = { offline: OFFLINE_TEXT, lost: LIVE_LOST_TEXT };
const RESTORED: Record<Outage, string> = { offline: BACK_ONLINE_TEXT, lost: LIVE_BACK_TEXT };

/**
 * Warns while the browser is offline (the specification's banner) or, online, while its real-time
 * connection is lost (live values, confirmations and notifications stop; not the user's network, so
 * said in words of its own), and confirms for a few seconds once both are back, in the words of what
 * was warned. A channel stopped while it was reconnecting (the user signed out) clears the warning
 * without claiming it is back.
 */
export function ConnectivityBanner() {
  const state = useSyncExternalStore(subscribe, connectivity, () => 'online' as const);
  const online = state === 'online' || state === 'stopped';
  const [warned, setWarned] = useState<Outage | false>(false);
  const [restored, setRestored] = useState<Outage | false>(false);

  // Adjusting state while rendering (not in an effect) so the two banners never both show. The browser
  // offline is what is said until all is back, even when its channel comes back after its network.
  const warnedFor: Outage = state === 'offline' || warned === 'offline' ? 'offline' : 'lost';
  if (!online && warned !== warnedFor) {
    setWarned(warnedFor);
    setRestored(false);
  } else if (online && warned) {
    setWarned(false);
    setRestored(state === 'online' || warned === 'offline' ? warned : false);
  }

  useEffect(() => {
    if (!restored) return;
    const timer = setTimeout(() => setRestored(false), BACK_ONLINE_BANNER_MS);
    return () => clearTimeout(timer);
  }, [restored]);

  if (online && !restored) return null;
  return (
    <div className={styles.banner} role={online ? 'status' : 'alert'}>
      <Alert variation={online ? 'success' : 'error'} hasIcon>
        {online ? RESTORED[restored || 'offline'] : WARNING[warnedFor]}
      </Alert>
    </div>
  );
}
