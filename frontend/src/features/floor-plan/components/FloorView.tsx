import { Alert, Placeholder } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import {
  DEVICE_HIGHLIGHT_MS,
  DRAWER_WIDTH,
  PLAN_MAX_HEIGHT,
  PLAN_MAX_WIDTH,
  SELECT_FLOOR_PROMPT_TEXT,
  type DeviceView,
} from '@argentum/contracts';
import { DeviceType } from '@argentum/contracts';
import { useSearchParams } from 'react-router';
import { useSessionUser } from '../../../shared/session/sessionStore';
import { floorPlanMutations, floorPlanQueries, setSensorSize } from '../api/floorPlanQueries';
import { modeMark, type ModeMark } from '../model/modeReducer';
import { saveHiddenTypes, saveLinksView } from '../model/view';
import { FloorViewProvider, useFloorView, type FloorViewFloor } from '../state/FloorViewProvider';
import type { FloorPanel } from '../state/floorViewReducer';
import { AnalyticsPanel } from './AnalyticsPanel';
import { DeviceIconSprite } from './DeviceIcons';
import { DevicePanel } from './DevicePanel';
import { FiltersPanel } from './FiltersPanel';
import { Legend } from './Legend';
import { OptionsMenu } from './OptionsMenu';
import { PlanViewport } from './PlanViewport';
import { NoPlanNotice, UploadPlanPanel } from './UploadPlanPanel';
import styles from './FloorView.module.css';
import shared from './floorShared.module.css';

export type { FloorViewFloor } from '../state/FloorViewProvider';

export interface FloorViewProps {
  /** null: no floor selected (the prompt shows). */
  floor: FloorViewFloor | null;
  /** Compare IEQ: both devices chosen (the sensor page opens the comparison). */
  onCompare?(first: DeviceView, second: DeviceView): void;
  /** The right drawer's content in edit mode (width 352); it reads the view through useFloorView(). */
  renderDrawer?(): ReactNode;
  /** Shown in the mode bar while grouping or ungrouping: the save controls. */
  renderModeActions?(): ReactNode;
  /** The selected device's configuration (normal mode): the device configuration drawer. */
  renderDeviceDetails?(device: DeviceView, close: () => void): ReactNode;
}

/** The floor view: plan with devices, OPTIONS, legend, device panel and the edit drawer. */
export default function FloorView({ floor, ...props }: FloorViewProps) {
  if (!floor) {
    return (
      <div className={styles.prompt}>
        <p>{SELECT_FLOOR_PROMPT_TEXT}</p>
      </div>
    );
  }
  return (
    <FloorViewProvider key={floor.floorId} floor={floor}>
      <FloorScreen {...props} />
    </FloorViewProvider>
  );
}

const MIN_PLAN_HEIGHT = 200;
const RESIZE_STEP = 24;

function FloorScreen({
  onCompare,
  renderDrawer,
  renderModeActions,
  renderDeviceDetails,
}: Omit<FloorViewProps, 'floor'>) {
  const { floor, state, dispatch, devices, devicesById, sizes, canAdminister, setPlan } = useFloorView();
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const planQuery = useQuery(floorPlanQueries.plan(floor));
  const devicesQuery = useQuery(floorPlanQueries.devices(floor));
  const saveSize = useMutation(floorPlanMutations.sensorSize(queryClient, user.id));

  const { mode: modeState, panels, hiddenTypes, selectedId, pinnedId, popupId, planHeight } = state;
  const editing = modeState.mode === 'edit';
  const visibleDevices = useMemo(
    () =>
      hiddenTypes.length === 0 ? devices : devices.filter((device) => !hiddenTypes.includes(device.devType)),
    [devices, hiddenTypes],
  );
  const types = useMemo(() => [...new Set(devices.map((d) => d.devType))].sort((a, b) => a - b), [devices]);
  const marks = useMemo(() => {
    const result = new Map<string, ModeMark>();
    for (const id of modeState.selection) result.set(id, modeMark(modeState, id));
    if (modeState.compareFirst) result.set(modeState.compareFirst.devID, 'first');
    if (modeState.compareSecond) result.set(modeState.compareSecond.devID, 'second');
    return result;
  }, [modeState]);

  const hasIeq = types.includes(DeviceType.ieq) || floor.floorDevTypes.includes(DeviceType.ieq);
  const hasGroupable = types.some((type) => type === DeviceType.powerNode || type === DeviceType.motion);

  // The pin marks a device chosen from the list for DEVICE_HIGHLIGHT_MS.
  useEffect(() => {
    if (pinnedId === null) return;
    const timer = setTimeout(() => dispatch({ type: 'pin', devID: null }), DEVICE_HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [pinnedId, dispatch]);

  // 'View Device' from a notification opens the floor with ?highlight=<devID>: pinned for
  // DEVICE_HIGHLIGHT_MS once the device is on screen, and the parameter is dropped (a reload does not repeat it).
  const [searchParams, setSearchParams] = useSearchParams();
  const highlight = searchParams.get('highlight');
  const highlightShown = highlight !== null && devicesById.has(highlight);
  useEffect(() => {
    if (!highlight || !highlightShown) return;
    // After this render: the pin's own effect then times it out.
    const timer = setTimeout(() => {
      dispatch({ type: 'highlight', devID: highlight });
      setSearchParams(
        (params) => {
          params.delete('highlight');
          return params;
        },
        { replace: true },
      );
    }, 0);
    return () => clearTimeout(timer);
  }, [highlight, highlightShown, setSearchParams, dispatch]);

  // Compare IEQ: both chosen, the comparison opens.
  const { compareFirst, compareSecond } = modeState;
  useEffect(() => {
    if (!compareFirst || !compareSecond) return;
    const first = devicesById.get(compareFirst.devID);
    const second = devicesById.get(compareSecond.devID);
    if (first && second) onCompare?.(first, second);
    // Only a new pair opens a comparison, not a live update of the same two devices.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [compareFirst, compareSecond]);

  useEffect(() => {
    if (modeState.mode === 'normal') return;
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (event.key === 'Escape' && modeState.mode !== 'edit')
        dispatch({ type: 'mode', action: { type: 'exit' } });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [modeState.mode, dispatch]);

  // Stable for the memoized rows and markers: reads the latest devices through a ref.
  const byIdRef = useRef(devicesById);
  useLayoutEffect(() => {
    byIdRef.current = devicesById;
  });
  const onActivate = useCallback(
    (devID: string) => {
      const device = byIdRef.current.get(devID);
      if (device) dispatch({ type: 'activate', device });
    },
    [dispatch],
  );
  const onHover = useCallback((devID: string | null) => dispatch({ type: 'popup', devID }), [dispatch]);
  const onMove = useCallback(
    (devID: string, origin: { x: number; y: number }) =>
      dispatch({ type: 'edit', action: { type: 'move', devID, origin } }),
    [dispatch],
  );

  const sizeTimers = useRef(new Map<number, ReturnType<typeof setTimeout>>());
  const onSize = useCallback(
    (devType: number, value: number) => {
      // The icons follow the slider at once; the size is saved when the slider rests.
      setSensorSize(queryClient, floor.floorId, devType, value);
      clearTimeout(sizeTimers.current.get(devType));
      sizeTimers.current.set(
        devType,
        setTimeout(() => saveSize.mutate({ floor, devType, value }), 400),
      );
    },
    [floor, queryClient, saveSize],
  );

  const onVisible = (devType: number, visible: boolean) => {
    const next = visible ? hiddenTypes.filter((t) => t !== devType) : [...hiddenTypes, devType];
    dispatch({ type: 'hiddenTypes', types: next });
    saveHiddenTypes(floor.floorId, next);
  };

  // An image that fails is most likely an expired URL: fetch a new one, once; then say so.
  const planRetried = useRef(false);
  const [planBroken, setPlanBroken] = useState(false);
  const onPlanError = () => {
    if (planRetried.current) return setPlanBroken(true);
    planRetried.current = true;
    void planQuery.refetch();
  };

  const plan = planQuery.data;
  const loading = planQuery.isPending || devicesQuery.isPending;
  const showUpload = !loading && (plan === null || panels.upload);
  // The device whose configuration drawer is open shows no popup: the drawer says it all, and the
  // popup would sit under the drawer.
  const detailsOpen = modeState.mode === 'normal' && renderDeviceDetails !== undefined ? selectedId : null;
  const popupDevice = popupId && popupId !== detailsOpen ? (devicesById.get(popupId) ?? null) : null;
  const toggle = (panel: FloorPanel, open?: boolean) => dispatch({ type: 'toggle', panel, open });

  return (
    <section
      className={styles.floorView}
      aria-label={`Floor view of ${floor.floorName}`}
      data-mode={modeState.mode}
    >
      <DeviceIconSprite />
      <div className={styles.column}>
        <div className={styles.toolbar}>
          <button
            type="button"
            className={shared.textButton}
            aria-pressed={panels.details}
            onClick={() => toggle('details')}
          >
            Floor details
          </button>
          <OptionsMenu
            mode={modeState.mode}
            hasIeq={hasIeq}
            hasGroupable={hasGroupable}
            canAdminister={canAdminister}
            showLinks={panels.links}
            onMode={(mode) =>
              dispatch({ type: 'enterMode', mode, devices: devicesQuery.data?.devices ?? [] })
            }
            onFilters={() => toggle('filters')}
            onUpload={() => toggle('upload', true)}
            onToggleLinks={() => {
              // The link view stays on from floor to floor (a way of looking, not one floor's state).
              saveLinksView(!panels.links);
              toggle('links');
            }}
          />
        </div>
        <ModeBar>
          {(modeState.mode === 'grouping' || modeState.mode === 'ungrouping') && renderModeActions?.()}
        </ModeBar>
        <div
          className={styles.planArea}
          style={{ height: planHeight, maxWidth: PLAN_MAX_WIDTH }}
          data-mode={modeState.mode}
        >
          {loading ? (
            <div className={styles.skeleton} role="status" aria-label="Loading floor plan">
              <Placeholder size="large" height="100%" />
            </div>
          ) : planQuery.isError || devicesQuery.isError ? (
            <Alert variation="error" role="alert">
              The floor plan could not be loaded. Please try again later.
            </Alert>
          ) : showUpload ? (
            canAdminister ? (
              <UploadPlanPanel floor={floor} hasPlan={plan !== null} onDone={() => toggle('upload', false)} />
            ) : (
              <NoPlanNotice />
            )
          ) : (
            plan && (
              <PlanViewport
                ref={setPlan}
                floorId={floor.floorId}
                floorName={floor.floorName}
                plan={plan}
                devices={visibleDevices}
                floorDevices={devices}
                sizes={sizes}
                marks={marks}
                selectedId={selectedId}
                pinnedId={pinnedId}
                popupDevice={popupDevice}
                showLinks={panels.links}
                editing={editing}
                onActivate={onActivate}
                onHover={onHover}
                onMove={editing ? onMove : undefined}
                onPlanError={onPlanError}
              />
            )
          )}
          {planBroken && !showUpload && (
            <Alert variation="warning" role="alert" className={styles.planAlert}>
              The floor plan image could not be shown. Reload the page to try again.
            </Alert>
          )}
          {panels.filters && (
            <FiltersPanel
              types={types}
              hiddenTypes={hiddenTypes}
              sizes={sizes}
              onVisible={onVisible}
              onSize={onSize}
              onClose={() => toggle('filters', false)}
            />
          )}
          {panels.details && <AnalyticsPanel floor={floor} onClose={() => toggle('details', false)} />}
        </div>
        <ResizeHandle height={planHeight} onHeight={(height) => dispatch({ type: 'planHeight', height })} />
        <Legend devices={devices} />
        {!loading && (
          <DevicePanel
            devices={devices}
            marks={marks}
            selectedId={selectedId}
            onActivate={onActivate}
            onFocusDevice={onHover}
          />
        )}
      </div>
      {/* Device configuration (flooredit): the selected device's drawer in normal mode. */}
      {modeState.mode === 'normal' &&
        selectedId !== null &&
        devicesById.has(selectedId) &&
        renderDeviceDetails?.(devicesById.get(selectedId) as DeviceView, () =>
          dispatch({ type: 'select', devID: null }),
        )}
      {editing && (
        <aside
          className={styles.drawer}
          style={{ '--drawer-width': `${DRAWER_WIDTH}px` } as CSSProperties}
          aria-label="Edit floor plan"
        >
          {renderDrawer ? (
            renderDrawer()
          ) : (
            <div className={styles.drawerEmpty}>
              <h2 className={shared.heading}>Edit Floor Plan</h2>
              <button
                type="button"
                className={shared.textButton}
                onClick={() => dispatch({ type: 'mode', action: { type: 'exit' } })}
              >
                Close
              </button>
            </div>
          )}
        </aside>
      )}
    </section>
  );
}

const MODE_PROMPTS: Record<string, string> = {
  grouping: 'Group Devices: select 2 or more lights or motion sensors of the same type.',
  ungrouping: 'Ungroup Devices: select the grouped devices to ungroup.',
};

function ModeBar({ children }: { children?: ReactNode }) {
  const { state: view, dispatch, devicesById } = useFloorView();
  const state = view.mode;
  if (state.mode === 'normal' || state.mode === 'edit') return null;
  const name = (id: string | undefined) => (id ? (devicesById.get(id)?.devName ?? id) : '');
  const prompt =
    state.mode === 'compareIEQ'
      ? !state.compareFirst
        ? 'Compare IEQ Devices: select the first IEQ sensor.'
        : !state.compareSecond
          ? `First IEQ: ${name(state.compareFirst.devID)}. Select the second IEQ sensor.`
          : `Comparing ${name(state.compareFirst.devID)} with ${name(state.compareSecond.devID)}.`
      : `${MODE_PROMPTS[state.mode]} Selected: ${state.selection.length}.`;
  return (
    <div className={styles.modeBar} role="region" aria-label="Mode">
      <p>{prompt}</p>
      {children}
      <button
        type="button"
        className={shared.textButton}
        onClick={() => dispatch({ type: 'mode', action: { type: 'exit' } })}
      >
        Cancel
      </button>
      {state.warning && (
        <Alert
          variation="warning"
          role="alert"
          isDismissible
          onDismiss={() => dispatch({ type: 'mode', action: { type: 'dismissWarning' } })}
          className={styles.modeWarning}
        >
          {state.warning}
        </Alert>
      )}
    </div>
  );
}

/** The plan area's lower edge: drag it, or focus it and use the arrow keys, to change the height. */
function ResizeHandle({ height, onHeight }: { height: number; onHeight(height: number): void }) {
  const start = useRef<{ y: number; height: number } | null>(null);
  const clamp = (value: number) =>
    Math.round(Math.min(PLAN_MAX_HEIGHT(window.innerHeight), Math.max(MIN_PLAN_HEIGHT, value)));
  const max = PLAN_MAX_HEIGHT(window.innerHeight);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const change: Record<string, number> = {
      ArrowUp: -RESIZE_STEP,
      ArrowDown: RESIZE_STEP,
      PageUp: -4 * RESIZE_STEP,
      PageDown: 4 * RESIZE_STEP,
    };
    if (event.key === 'Home') onHeight(MIN_PLAN_HEIGHT);
    else if (event.key === 'End') onHeight(max);
    else if (change[event.key] !== undefined) onHeight(clamp(height + (change[event.key] ?? 0)));
    else return;
    event.preventDefault();
  };
  return (
    // A focusable separator is a widget (ARIA 1.2 splitter); jsx-a11y counts every separator as static.
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      className={styles.resizeHandle}
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the floor plan"
      aria-valuemin={MIN_PLAN_HEIGHT}
      aria-valuemax={max}
      aria-valuenow={height}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onPointerDown={(event: PointerEvent<HTMLDivElement>) => {
        start.current = { y: event.clientY, height };
        event.currentTarget.setPointerCapture(event.pointerId);
      }}
      onPointerMove={(event) => {
        if (start.current) onHeight(clamp(start.current.height + event.clientY - start.current.y));
      }}
      onPointerUp={() => (start.current = null)}
      onPointerCancel={() => (start.current = null)}
    />
  );
}
