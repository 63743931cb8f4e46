import { Alert, Placeholder } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import {
  DEVICE_HIGHLIGHT_MS,
  DRAWER_WIDTH,
  PLAN_MAX_HEIGHT,
  PLAN_MAX_WIDTH,
  PLAN_START_HEIGHT,
  Role,
  SELECT_FLOOR_PROMPT_TEXT,
  type DeviceView,
} from '@argentum/events/contracts';
import { DeviceType } from '@argentum/events/contracts';
import { useSearchParams } from 'react-router';
import { canIn, useSessionUser } from '../../../shared/session/sessionStore';
import { floorPlanMutations, floorPlanQueries, setSensorSize, type FloorRef } from '../api/floorPlanQueries';
import {
  floorModeReducer,
  initialModeState,
  modeMark,
  type FloorModeAction,
  type FloorModeState,
  type ModeMark,
} from '../model/modeReducer';
import { loadHiddenTypes, saveHiddenTypes } from '../model/view';
import { AnalyticsPanel } from './AnalyticsPanel';
import { DeviceIconSprite } from './DeviceIcons';
import { DevicePanel } from './DevicePanel';
import { FiltersPanel } from './FiltersPanel';
import { Legend } from './Legend';
import { OptionsMenu } from './OptionsMenu';
import { PlanViewport, type PlanViewportHandle } from './PlanViewport';
import { UploadPlanPanel } from './UploadPlanPanel';
import styles from './FloorView.module.css';

/** The floor the view shows. */
export interface FloorViewFloor extends FloorRef {
  floorName: string;
  floorDevTypes: readonly number[];
}

/**
 * What the slots (the edit-mode drawer, the grouping save bar) get: the floor, its devices, the mode
 * state and its dispatch, and the plan's geometry.
 */
export interface FloorModeContext {
  floor: FloorViewFloor;
  /** The floor's devices as the server answered them (and live updates changed them). */
  devices: readonly DeviceView[];
  state: FloorModeState;
  dispatch(action: FloorModeAction): void;
  /** The caller's role in the floor's organization is above 1 (may edit, group, upload). */
  canAdminister: boolean;
  /** Edit mode: show these devices on the plan instead of the saved ones (null: the saved ones). */
  setDraftDevices(devices: DeviceView[] | null): void;
  /** A page point as a plan position (0-1 of its width and height), null when off the plan: for drops. */
  clientToPlan(clientX: number, clientY: number): { x: number; y: number } | null;
  /** Edit mode: called when a device on the plan is dragged to a new position. */
  setDeviceMoveHandler(handler: ((devID: string, point: { x: number; y: number }) => void) | null): void;
  /** Edit mode: called when a device is clicked, tapped or chosen from the list (instead of selecting it). */
  setDeviceActivateHandler(handler: ((devID: string) => void) | null): void;
  /** Back to normal mode. */
  exit(): void;
}

export interface FloorViewProps {
  /** null: no floor selected (the prompt shows). */
  floor: FloorViewFloor | null;
  /** Compare IEQ: both devices chosen (the sensor page opens the comparison). */
  onCompare?(first: DeviceView, second: DeviceView): void;
  /** The right drawer's content in edit mode (width 352). */
  renderDrawer?(context: FloorModeContext): ReactNode;
  /** Shown in the mode bar while grouping or ungrouping: the save controls. */
  renderModeActions?(context: FloorModeContext): ReactNode;
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
  return <FloorScreen key={floor.floorId} floor={floor} {...props} />;
}

const MIN_PLAN_HEIGHT = 200;
const RESIZE_STEP = 24;
const EMPTY_DEVICES: DeviceView[] = [];
const EMPTY_SIZES: Record<string, number> = {};

function FloorScreen({
  floor,
  onCompare,
  renderDrawer,
  renderModeActions,
  renderDeviceDetails,
}: FloorViewProps & { floor: FloorViewFloor }) {
  const user = useSessionUser();
  const queryClient = useQueryClient();
  const planQuery = useQuery(floorPlanQueries.plan(floor));
  const devicesQuery = useQuery(floorPlanQueries.devices(floor));
  const saveSize = useMutation(floorPlanMutations.sensorSize(queryClient, user.id));
  const canAdminister = canIn(user, floor.orgId, Role.admin);

  const [modeState, dispatch] = useReducer(floorModeReducer, initialModeState);
  const [hiddenTypes, setHiddenTypes] = useState<number[]>(() => loadHiddenTypes(floor.floorId));
  const [showLinks, setShowLinks] = useState(false);
  const [showFilters, setShowFilters] = useState(false);
  const [showDetails, setShowDetails] = useState(false);
  const [uploading, setUploading] = useState(false);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [pinnedId, setPinnedId] = useState<string | null>(null);
  const [popupId, setPopupId] = useState<string | null>(null);
  const [draftDevices, setDraftDevices] = useState<DeviceView[] | null>(null);
  const [planHeight, setPlanHeight] = useState(() => PLAN_START_HEIGHT(window.innerHeight));
  // State, not a ref: the slots' context reads it during render.
  const [viewportHandle, setViewportHandle] = useState<PlanViewportHandle | null>(null);
  const [moveHandler, setMoveHandler] = useState<{
    onMove: (devID: string, point: { x: number; y: number }) => void;
  } | null>(null);
  const [activateHandler, setActivateHandler] = useState<{ onActivate: (devID: string) => void } | null>(
    null,
  );

  const savedDevices = devicesQuery.data?.devices ?? EMPTY_DEVICES;
  const sizes = devicesQuery.data?.sensorSizes ?? EMPTY_SIZES;
  const editing = modeState.mode === 'edit';
  const devices = editing && draftDevices ? draftDevices : savedDevices;
  const visibleDevices = useMemo(
    () =>
      hiddenTypes.length === 0 ? devices : devices.filter((device) => !hiddenTypes.includes(device.devType)),
    [devices, hiddenTypes],
  );
  const types = useMemo(() => [...new Set(devices.map((d) => d.devType))].sort((a, b) => a - b), [devices]);
  const devicesById = useMemo(() => new Map(devices.map((device) => [device.devID, device])), [devices]);
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
    const timer = setTimeout(() => setPinnedId(null), DEVICE_HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [pinnedId]);

  // 'View Device' from a notification opens the floor with ?highlight=<devID>: pinned for
  // DEVICE_HIGHLIGHT_MS once the device is on screen, and the parameter is dropped (a reload does not repeat it).
  const [searchParams, setSearchParams] = useSearchParams();
  const highlight = searchParams.get('highlight');
  const highlightShown = highlight !== null && devicesById.has(highlight);
  useEffect(() => {
    if (!highlight || !highlightShown) return;
    // After this render: the pin's own effect then times it out.
    const timer = setTimeout(() => {
      setPinnedId(highlight);
      setPopupId(highlight);
      setSearchParams(
        (params) => {
          params.delete('highlight');
          return params;
        },
        { replace: true },
      );
    }, 0);
    return () => clearTimeout(timer);
  }, [highlight, highlightShown, setSearchParams]);

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
      if (event.key === 'Escape' && modeState.mode !== 'edit') dispatch({ type: 'exit' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [modeState.mode]);

  // Stable for the memoized rows and markers: reads the latest state through a ref.
  const activateState = useRef({ devicesById, mode: modeState.mode, popupId, activateHandler });
  useLayoutEffect(() => {
    activateState.current = { devicesById, mode: modeState.mode, popupId, activateHandler };
  });
  const onActivate = useCallback((devID: string) => {
    const { devicesById: byId, mode, popupId: shown, activateHandler: editActivate } = activateState.current;
    const device = byId.get(devID);
    if (!device) return;
    if (mode === 'grouping' || mode === 'ungrouping' || mode === 'compareIEQ') {
      dispatch({ type: 'pick', device });
      return;
    }
    if (mode === 'edit' && editActivate) {
      editActivate.onActivate(devID);
      return;
    }
    setSelectedId((current) => (current === devID && shown === devID ? null : devID));
    setPinnedId(devID);
    setPopupId(devID);
  }, []);

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
    setHiddenTypes(next);
    saveHiddenTypes(floor.floorId, next);
  };

  const clientToPlan = useCallback(
    (x: number, y: number) => viewportHandle?.clientToPlan(x, y) ?? null,
    [viewportHandle],
  );
  const setDeviceMoveHandler = useCallback(
    (handler: ((devID: string, point: { x: number; y: number }) => void) | null) =>
      setMoveHandler(handler ? { onMove: handler } : null),
    [],
  );
  const setDeviceActivateHandler = useCallback(
    (handler: ((devID: string) => void) | null) =>
      setActivateHandler(handler ? { onActivate: handler } : null),
    [],
  );
  const exit = useCallback(() => dispatch({ type: 'exit' }), []);
  const context: FloorModeContext = {
    floor,
    devices: savedDevices,
    state: modeState,
    dispatch,
    canAdminister,
    setDraftDevices,
    clientToPlan,
    setDeviceMoveHandler,
    setDeviceActivateHandler,
    exit,
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
  const showUpload = !loading && (plan === null || uploading);
  // The device whose configuration drawer is open shows no popup: the drawer says it all, and the
  // popup would sit under the drawer.
  const detailsOpen = modeState.mode === 'normal' && renderDeviceDetails !== undefined ? selectedId : null;
  const popupDevice = popupId && popupId !== detailsOpen ? (devicesById.get(popupId) ?? null) : null;

  return (
    <section className={styles.floorView} aria-label={`Floor view of ${floor.floorName}`}>
      <DeviceIconSprite />
      <div className={styles.column}>
        <div className={styles.toolbar}>
          <button
            type="button"
            className={styles.textButton}
            aria-pressed={showDetails}
            onClick={() => setShowDetails((open) => !open)}
          >
            Floor details
          </button>
          <OptionsMenu
            mode={modeState.mode}
            hasIeq={hasIeq}
            hasGroupable={hasGroupable}
            canAdminister={canAdminister}
            showLinks={showLinks}
            onMode={(mode) => {
              setShowFilters(false);
              if (mode === 'edit') setDraftDevices(null);
              dispatch({ type: 'enter', mode });
            }}
            onFilters={() => setShowFilters((open) => !open)}
            onUpload={() => setUploading(true)}
            onToggleLinks={() => setShowLinks((on) => !on)}
          />
        </div>
        <ModeBar state={modeState} dispatch={dispatch} devicesById={devicesById}>
          {(modeState.mode === 'grouping' || modeState.mode === 'ungrouping') && renderModeActions?.(context)}
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
              <UploadPlanPanel floor={floor} hasPlan={plan !== null} onDone={() => setUploading(false)} />
            ) : (
              <div className={styles.uploadPanel}>
                <p className={styles.uploadTitle}>This floor has no floor plan yet.</p>
                <p className={styles.muted}>An administrator of the organization can upload one.</p>
              </div>
            )
          ) : (
            plan && (
              <PlanViewport
                ref={setViewportHandle}
                floorId={floor.floorId}
                floorName={floor.floorName}
                plan={plan}
                devices={visibleDevices}
                sizes={sizes}
                marks={marks}
                selectedId={selectedId}
                pinnedId={pinnedId}
                popupDevice={popupDevice}
                showLinks={showLinks}
                editing={editing}
                onActivate={onActivate}
                onHover={setPopupId}
                onMove={editing ? moveHandler?.onMove : undefined}
                onPlanError={onPlanError}
              />
            )
          )}
          {planBroken && !showUpload && (
            <Alert variation="warning" role="alert" className={styles.planAlert}>
              The floor plan image could not be shown. Reload the page to try again.
            </Alert>
          )}
          {showFilters && (
            <FiltersPanel
              types={types}
              hiddenTypes={hiddenTypes}
              sizes={sizes}
              onVisible={onVisible}
              onSize={onSize}
              onClose={() => setShowFilters(false)}
            />
          )}
          {showDetails && <AnalyticsPanel floor={floor} onClose={() => setShowDetails(false)} />}
        </div>
        <ResizeHandle height={planHeight} onHeight={setPlanHeight} />
        <Legend devices={devices} />
        {!loading && (
          <DevicePanel
            devices={devices}
            marks={marks}
            selectedId={selectedId}
            onActivate={onActivate}
            onFocusDevice={setPopupId}
          />
        )}
      </div>
      {/* Device configuration (flooredit): the selected device's drawer in normal mode. */}
      {modeState.mode === 'normal' &&
        selectedId !== null &&
        devicesById.has(selectedId) &&
        renderDeviceDetails?.(devicesById.get(selectedId) as DeviceView, () => setSelectedId(null))}
      {editing && (
        <aside className={styles.drawer} style={{ width: DRAWER_WIDTH }} aria-label="Edit floor plan">
          {renderDrawer ? (
            renderDrawer(context)
          ) : (
            <div className={styles.drawerEmpty}>
              <h2>Edit Floor Plan</h2>
              <button type="button" className={styles.textButton} onClick={() => dispatch({ type: 'exit' })}>
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

function ModeBar({
  state,
  dispatch,
  devicesById,
  children,
}: {
  state: FloorModeState;
  dispatch(action: FloorModeAction): void;
  devicesById: ReadonlyMap<string, DeviceView>;
  children?: ReactNode;
}) {
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
      <button type="button" className={styles.textButton} onClick={() => dispatch({ type: 'exit' })}>
        Cancel
      </button>
      {state.warning && (
        <Alert
          variation="warning"
          role="alert"
          isDismissible
          onDismiss={() => dispatch({ type: 'dismissWarning' })}
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
