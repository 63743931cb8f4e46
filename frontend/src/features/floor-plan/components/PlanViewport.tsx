import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type Ref,
} from 'react';
import { CTRL_ZOOM_HINT_MS, type DeviceView, type FloorPlanAnswer } from '@argentum/contracts';
import { deviceLinks, linksNoteText } from '../model/links';
import type { ModeMark } from '../model/modeReducer';
import {
  ctrlZoomHintShown,
  DEFAULT_VIEW,
  fitPlan,
  loadView,
  rememberCtrlZoomHint,
  saveView,
  steppedZoom,
  zoomAround,
  type PlanView,
} from '../model/view';
import { DeviceLayer } from './DeviceLayer';
import { DevicePopup } from './DevicePopup';
import { PlanImage } from './PlanImage';
import { usePlanGestures } from './usePlanGestures';
import styles from './PlanViewport.module.css';

export const CTRL_ZOOM_HINT_TEXT = 'Use ctrl + scroll to zoom';
const PAN_STEP = 40;
/** What the floor view (and the edit-mode drawer, through it) can ask of the plan. */
export interface PlanViewportHandle {
  /** A point of the page as a position on the plan (0-1 of its width and height), null when off it. */
  clientToPlan(clientX: number, clientY: number): { x: number; y: number } | null;
  zoomIn(): void;
  zoomOut(): void;
}

interface PlanViewportProps {
  ref?: Ref<PlanViewportHandle>;
  floorId: string;
  floorName: string;
  plan: FloorPlanAnswer;
  /** The devices shown (the filters applied). */
  devices: readonly DeviceView[];
  /** All of the floor's devices, shown or not (where Sensor-Node(link) finds gateways). */
  floorDevices: readonly DeviceView[];
  sizes: Record<string, number>;
  marks: ReadonlyMap<string, ModeMark>;
  selectedId: string | null;
  pinnedId: string | null;
  popupDevice: DeviceView | null;
  showLinks: boolean;
  editing: boolean;
  /** A device was clicked or tapped. */
  onActivate(devID: string): void;
  /** The pointer entered (devID) or left (null) a device. */
  onHover(devID: string | null): void;
  /** Edit mode: a device was dragged to a new position. */
  onMove?(devID: string, point: { x: number; y: number }): void;
  /** The plan image could not be loaded (an expired URL): fetch it again. */
  onPlanError(): void;
}

export function PlanViewport({
  ref,
  floorId,
  floorName,
  plan,
  devices,
  sizes,
  marks,
  selectedId,
  pinnedId,
  popupDevice,
  showLinks,
  floorDevices,
  editing,
  onActivate,
  onHover,
  onMove,
  onPlanError,
}: PlanViewportProps) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState({ width: 0, height: 0 });
  const [view, setView] = useState<PlanView>(() => loadView(floorId));
  const [hint, setHint] = useState(false);
  const links = useMemo(
    () => (showLinks ? deviceLinks(devices, floorDevices) : undefined),
    [showLinks, devices, floorDevices],
  );
  const linksNote = links && linksNoteText(links);
  // The plan image is requested once the devices are on screen: a big SVG is parsed on the main
  // thread when it arrives (seconds for 10 MB), and the devices should not wait for that.
  const [imageWanted, setImageWanted] = useState(false);

  useLayoutEffect(() => {
    const element = viewportRef.current;
    if (!element) return;
    const measure = () => setBox({ width: element.clientWidth, height: element.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    // Two frames: the first paints the devices, the second starts the image.
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => setImageWanted(true));
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, []);

  // Remembered per floor; written once the view has settled.
  const [settledView, setSettledView] = useState(view);
  useEffect(() => {
    const timer = setTimeout(() => {
      saveView(floorId, view);
      setSettledView(view);
    }, 150);
    return () => clearTimeout(timer);
  }, [floorId, view]);

  const base = fitPlan(box, plan);
  const centre = { x: (box.width - base.width) / 2, y: (box.height - base.height) / 2 };
  // For the handlers added by hand (wheel) and the imperative handle.
  const centreRef = useRef(centre);
  const baseRef = useRef(base);
  const viewRef = useRef(view);
  useLayoutEffect(() => {
    centreRef.current = centre;
    baseRef.current = base;
    viewRef.current = view;
  });

  const zoomBy = useCallback(
    (direction: 'in' | 'out') =>
      setView((current) =>
        zoomAround(
          current,
          steppedZoom(current.zoom, direction, editing),
          { x: box.width / 2, y: box.height / 2 },
          centreRef.current,
        ),
      ),
    [box.width, box.height, editing],
  );

  const toPlan = useCallback((clientX: number, clientY: number) => {
    const element = viewportRef.current;
    const { width, height } = baseRef.current;
    const current = viewRef.current;
    if (!element || width === 0) return null;
    const rect = element.getBoundingClientRect();
    const x = (clientX - rect.left - centreRef.current.x - current.x) / (width * current.zoom);
    const y = (clientY - rect.top - centreRef.current.y - current.y) / (height * current.zoom);
    return x >= 0 && x <= 1 && y >= 0 && y <= 1 ? { x, y } : null;
  }, []);

  useImperativeHandle(
    ref,
    () => ({ clientToPlan: toPlan, zoomIn: () => zoomBy('in'), zoomOut: () => zoomBy('out') }),
    [toPlan, zoomBy],
  );

  // Ctrl + wheel zooms around the pointer. React's wheel listener is passive: it cannot prevent the
  // page's own zoom, so this one is added by hand.
  useEffect(() => {
    const element = viewportRef.current;
    if (!element) return;
    let hintTimer: ReturnType<typeof setTimeout> | undefined;
    const onWheel = (event: WheelEvent) => {
      if (!event.ctrlKey) {
        if (!ctrlZoomHintShown()) {
          rememberCtrlZoomHint();
          setHint(true);
          hintTimer = setTimeout(() => setHint(false), CTRL_ZOOM_HINT_MS);
        }
        return;
      }
      event.preventDefault();
      const rect = element.getBoundingClientRect();
      const anchor = { x: event.clientX - rect.left, y: event.clientY - rect.top };
      const factor = Math.exp(-Math.max(-100, Math.min(100, event.deltaY)) * 0.004);
      setView((current) => zoomAround(current, current.zoom * factor, anchor, centreRef.current));
    };
    element.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      element.removeEventListener('wheel', onWheel);
      clearTimeout(hintTimer);
    };
  }, []);

  const { dragPoint, handlers } = usePlanGestures({
    viewportRef,
    view,
    setView,
    centreRef,
    toPlan,
    onActivate,
    onHover,
    onMove: editing ? onMove : undefined,
  });

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    const pan = (dx: number, dy: number) => setView((v) => ({ ...v, x: v.x + dx, y: v.y + dy }));
    const handled: Record<string, () => void> = {
      '+': () => zoomBy('in'),
      '=': () => zoomBy('in'),
      '-': () => zoomBy('out'),
      _: () => zoomBy('out'),
      '0': () => setView(DEFAULT_VIEW),
      ArrowLeft: () => pan(PAN_STEP, 0),
      ArrowRight: () => pan(-PAN_STEP, 0),
      ArrowUp: () => pan(0, PAN_STEP),
      ArrowDown: () => pan(0, -PAN_STEP),
    };
    const action = handled[event.key];
    if (action && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      action();
    }
  };

  const stageStyle = {
    width: base.width,
    height: base.height,
    transform: `translate(${centre.x + view.x}px, ${centre.y + view.y}px) scale(${view.zoom})`,
    // A layer kept for a moving transform is scaled as it was drawn: once the view rests it is drawn
    // again at its zoom, so a zoomed-in SVG plan is sharp.
    willChange: settledView === view ? 'auto' : 'transform',
    '--zoom': view.zoom,
    ...Object.fromEntries(Object.entries(sizes).map(([type, size]) => [`--size-${type}`, size])),
  } as CSSProperties;

  const popupAt = (device: DeviceView) => {
    const origin = device.floorOrigin;
    if (!origin) return null;
    return {
      x: centre.x + view.x + origin.x * base.width * view.zoom,
      y: centre.y + view.y + origin.y * base.height * view.zoom,
    };
  };
  const popupPoint = popupDevice ? popupAt(popupDevice) : null;
  const dragged = dragPoint ? devices.find((device) => device.devID === dragPoint.devID) : undefined;

  return (
    <div className={styles.viewportFrame}>
      {/* role="application": the plan takes its own keys (zoom, pan); jsx-a11y counts it as static. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={viewportRef}
        className={styles.viewport}
        role="application"
        aria-roledescription="floor plan"
        aria-label={`Floor plan of ${floorName}. Plus and minus zoom, arrow keys pan, 0 resets.`}
        tabIndex={0}
        data-zoom={view.zoom}
        data-testid="floor-plan-viewport"
        {...handlers}
        onKeyDown={onKeyDown}
      >
        <div className={styles.stage} style={stageStyle} data-testid="floor-plan-stage">
          <PlanImage
            plan={plan}
            floorName={floorName}
            shownWidth={base.width * view.zoom}
            wanted={imageWanted}
            onError={onPlanError}
          />
          {links && <LinkLines lines={links.lines} />}
          <DeviceLayer devices={devices} marks={marks} selectedId={selectedId} pinnedId={pinnedId} />
          {dragged && dragPoint && (
            <div
              className={styles.dragGhost}
              style={{ left: `${dragPoint.x * 100}%`, top: `${dragPoint.y * 100}%` }}
              aria-hidden="true"
            />
          )}
        </div>
      </div>
      <div className={styles.zoomControls} data-control="">
        <button type="button" aria-label="Zoom in" title="Zoom in" onClick={() => zoomBy('in')}>
          +
        </button>
        <button type="button" aria-label="Zoom out" title="Zoom out" onClick={() => zoomBy('out')}>
          −
        </button>
        <button
          type="button"
          // The zoom it shows is part of its name (what a voice user says to press it).
          aria-label={`Reset zoom, ${Math.round(view.zoom * 100)}%`}
          title="Reset zoom"
          onClick={() => setView(DEFAULT_VIEW)}
        >
          {Math.round(view.zoom * 100)}%
        </button>
      </div>
      {linksNote && (
        // What the lines cannot show here: devices whose gateway is on another floor.
        <p className={styles.linksNote} role="status">
          {linksNote}
        </p>
      )}
      {hint && (
        <div className={styles.hint} role="status">
          {CTRL_ZOOM_HINT_TEXT}
        </div>
      )}
      {popupDevice && popupPoint && (
        <DevicePopup device={popupDevice} x={popupPoint.x} y={popupPoint.y} viewport={box} />
      )}
    </div>
  );
}

/** Sensor-Node(link): a line from each node or sensor to the gateway it reports through (gatewayID). */
function LinkLines({ lines }: { lines: ReturnType<typeof deviceLinks>['lines'] }) {
  return (
    <svg
      className={styles.links}
      viewBox="0 0 1 1"
      preserveAspectRatio="none"
      aria-hidden="true"
      data-testid="device-links"
    >
      {lines.map(({ device, gateway }) => (
        <line
          key={device.devID}
          x1={device.floorOrigin?.x}
          y1={device.floorOrigin?.y}
          x2={gateway.floorOrigin?.x}
          y2={gateway.floorOrigin?.y}
          vectorEffect="non-scaling-stroke"
        />
      ))}
    </svg>
  );
}
