/**
 * The floor view alone, for `npm run bench` (bench/floor-view.bench.ts): the production build of the
 * real components against a served fixture floor. The bench drives live values through
 * window.benchApplyDeviceUpdates, the cache update the real-time client uses.
 */
import '@aws-amplify/ui-react/styles.css';
import '../../src/app/styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { applyDeviceUpdates, FloorView, type DeviceUpdate } from '../../src/features/floor-plan';
import { establishSession } from '../../src/shared/session/sessionStore';
import { applyTheme } from '../../src/shared/theme/theme';
import { BENCH_FLOOR } from './fixtures';

declare global {
  interface Window {
    benchApplyDeviceUpdates(updates: DeviceUpdate[]): void;
    /** performance.now() when every marker was on screen, and when the plan image had loaded. */
    benchDevicesVisibleAt?: number;
    benchPlanLoadedAt?: number;
    /** Which plan image loaded first: 'raster' or 'vector'. */
    benchPlanSource?: string;
    /**
     * Drives `perSecond` value changes for `driveMs`; answers, after `measureAfterMs`, each frame's work
     * (main-thread time from its start until it is painted) and the intervals between frames.
     */
    benchDrive(options: {
      perSecond: number;
      driveMs: number;
      measureAfterMs: number;
    }): Promise<{ work: number[]; intervals: number[] }>;
  }
}

const markers = () => document.querySelectorAll('[data-testid="floor-plan-stage"] [data-devid]');
const deviceIds = () => [...markers()].map((marker) => (marker as HTMLElement).dataset.devid ?? '');

function watchDevices(count: number) {
  const check = () => {
    if (markers().length >= count) {
      requestAnimationFrame(() => (window.benchDevicesVisibleAt = performance.now()));
      return;
    }
    requestAnimationFrame(check);
  };
  requestAnimationFrame(check);
  document.addEventListener(
    'load',
    (event) => {
      const target = event.target as HTMLElement;
      if (target.tagName !== 'IMG' || window.benchPlanLoadedAt !== undefined) return;
      window.benchPlanLoadedAt = performance.now();
      window.benchPlanSource = target.dataset.planSource;
    },
    true,
  );
}

window.benchDrive = ({ perSecond, driveMs, measureAfterMs }) =>
  new Promise((resolve) => {
    const ids = deviceIds();
    const tick = 10;
    const perTick = Math.round((perSecond * tick) / 1000);
    let next = 0;
    let value = 0;
    const driver = setInterval(() => {
      const updates: DeviceUpdate[] = [];
      for (let i = 0; i < perTick; i++) {
        value = (value + 0.37) % 15;
        const at = Date.now();
        updates.push({
          devID: ids[next++ % ids.length] ?? '',
          latest: { temp: 18 + value, hum: 40 + value },
          latestAt: { temp: at, hum: at },
          lastSeen: at,
        });
      }
      window.benchApplyDeviceUpdates(updates);
    }, tick);
    // A frame's work: from the frame's start (the time every animation frame callback of it is given)
    // to the first task after it, which runs once its callbacks, style, layout and paint are done.
    const work: number[] = [];
    const intervals: number[] = [];
    const channel = new MessageChannel();
    let frameStart = 0;
    channel.port1.onmessage = () => work.push(performance.now() - frameStart);
    const start = performance.now();
    let last = start;
    const frame = (now: number) => {
      if (now - start > measureAfterMs) {
        intervals.push(now - last);
        frameStart = now;
        channel.port2.postMessage(null);
      }
      last = now;
      if (now - start < driveMs) requestAnimationFrame(frame);
      else {
        clearInterval(driver);
        channel.port1.close();
        resolve({ work, intervals });
      }
    };
    requestAnimationFrame(frame);
  });

const params = new URLSearchParams(location.search);
watchDevices(Number(params.get('devices') ?? 2000));
// ?theme=dark for the bench's dark screenshot.
applyTheme(params.get('theme') === 'dark' ? 'dark' : 'light');

establishSession({
  accessToken: 'bench',
  user: {
    id: 'bench-user',
    userName: 'bench',
    email: 'bench@example.com',
    roles: 2,
    org: [BENCH_FLOOR.orgId],
    orgID: [BENCH_FLOOR.orgId],
    orgRoles: { [BENCH_FLOOR.orgId]: 2 },
    theme: 'light',
  },
});

const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
window.benchApplyDeviceUpdates = (updates) => applyDeviceUpdates(queryClient, BENCH_FLOOR.floorId, updates);

const container = document.getElementById('root');
if (!container) throw new Error('no #root');
createRoot(container).render(
  <QueryClientProvider client={queryClient}>
    {/* The floor view reads and writes its URL (a notification's highlight, Compare IEQ's navigation). */}
    <MemoryRouter>
      <main style={{ padding: 16 }}>
        <Suspense fallback={null}>
          <FloorView
            floor={{ ...BENCH_FLOOR, floorName: 'Bench Floor', floorDevTypes: [1, 2, 3, 4, 5, 9] }}
          />
        </Suspense>
      </main>
    </MemoryRouter>
  </QueryClientProvider>,
);
