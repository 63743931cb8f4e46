import { Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { type DeviceView, roleIn } from '@argentum/events/contracts';
import { MAX_FLOOR_CHANGES } from '@argentum/events/contracts/requests';
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useSessionUser } from '../../../../shared/session/sessionStore';
import { showToast } from '../../../../shared/ui/toastStore';
import { editingQueries, useSaveFloorEdits } from '../../api/editing';
import { DropDeviceDialog } from './DropDeviceDialog';
import { EditDevicesDrawer } from './EditDevicesDrawer';
import {
  changeCounts,
  editSessionReducer,
  hasChanges,
  offFloorDevices,
  placedDevices,
  type PlanPoint,
  saveRequest,
  startSession,
} from './editSession';
import { deviceLabel, typeMark } from './deviceLabels';
import styles from './edit.module.css';
import { PositionPad } from './PositionPad';
import { dropNeedsForm, dropRefusal, removeRefusal } from './rules';
import { UnregisterDialog } from './UnregisterDialog';

const TOO_MANY_CHANGES_TEXT = `Save at most ${MAX_FLOOR_CHANGES} changes at a time: save these, then go on.`;

/** What edit mode needs from the floor view (its FloorModeContext provides it). */
export interface FloorEditHost {
  floor: { floorId: string; orgId: string };
  /** The floor's devices as saved; the session starts from them when edit mode opens. */
  devices: readonly DeviceView[];
  /** Show these devices on the plan instead of the saved ones (null: the saved ones). */
  setDraftDevices(devices: DeviceView[] | null): void;
  /** A viewport point as a plan position (0-1), null when it is off the plan. */
  clientToPlan(clientX: number, clientY: number): PlanPoint | null;
  /** A device on the plan was dragged to a new position. */
  setDeviceMoveHandler(handler: ((devID: string, point: PlanPoint) => void) | null): void;
  /** A device on the plan was clicked, tapped or chosen from the list while editing. */
  setDeviceActivateHandler?(handler: ((devID: string) => void) | null): void;
  /** Leaves edit mode. */
  exit(): void;
}

/**
 * Edit mode (issue 9 item 6), rendered in the floor view's right drawer while the view is in edit
 * mode. It snapshots the floor's devices when it mounts and tracks every device added, moved or
 * removed; the plan shows the session's devices. Save sends them in ONE all-or-nothing
 * /updateOnFloorStatus (on failure nothing is lost); Cancel reverts everything.
 */
export function FloorEditDrawer({ host }: { host: FloorEditHost }) {
  const { floor, setDraftDevices, setDeviceMoveHandler, setDeviceActivateHandler, clientToPlan, exit } = host;
  const user = useSessionUser();
  const role = roleIn(user.orgRoles, floor.orgId);
  const [session, dispatch] = useReducer(editSessionReducer, host.devices, startSession);
  const offFloorQuery = useQuery(editingQueries.offFloorDevices(floor.orgId, floor.floorId));
  const save = useSaveFloorEdits();
  const [picked, setPicked] = useState<DeviceView | null>(null);
  const [ghost, setGhost] = useState<{ device: DeviceView; x: number; y: number } | null>(null);
  const [dropping, setDropping] = useState<{ device: DeviceView; point: PlanPoint } | null>(null);
  const [opened, setOpened] = useState<DeviceView | null>(null);
  /** The device the position pad moves (the one just placed, or chosen on the plan). */
  const [nudging, setNudging] = useState<string | null>(null);
  const padElement = useRef<HTMLDivElement | null>(null);

  const placed = useMemo(() => placedDevices(session), [session]);
  const tiles = useMemo(
    () => offFloorDevices(session, offFloorQuery.data ?? []),
    [session, offFloorQuery.data],
  );
  const counts = changeCounts(session);

  // The plan shows the session's devices while editing; the saved ones again when edit mode ends.
  useEffect(() => {
    setDraftDevices(placed.map(({ device, origin }) => ({ ...device, onFloor: true, floorOrigin: origin })));
  }, [placed, setDraftDevices]);
  useEffect(() => () => setDraftDevices(null), [setDraftDevices]);

  // The plan's drags and clicks come here while editing.
  const latest = useRef({ placed });
  useLayoutEffect(() => {
    latest.current = { placed };
  });
  useEffect(() => {
    setDeviceMoveHandler((devID, point) => dispatch({ type: 'move', devID, origin: point }));
    setDeviceActivateHandler?.((devID) => {
      const entry = latest.current.placed.find((p) => p.device.devID === devID);
      if (entry) setOpened(entry.device);
    });
    return () => {
      setDeviceMoveHandler(null);
      setDeviceActivateHandler?.(null);
    };
  }, [setDeviceMoveHandler, setDeviceActivateHandler]);

  const focusPad = (devID: string) => {
    setNudging(devID);
    requestAnimationFrame(() => padElement.current?.focus());
  };

  /** A device arrives on the plan: refused, asked for what it lacks, or placed. */
  const drop = useCallback(
    (device: DeviceView, point: PlanPoint, thenNudge = false) => {
      setPicked(null);
      const refusal = dropRefusal(device, role);
      if (refusal) {
        showToast(refusal, 'warning');
        return;
      }
      // A floor device taken off in this session goes back as it was.
      if (session.baseline.has(device.devID) || !dropNeedsForm(device)) {
        dispatch({ type: 'add', device, origin: point });
        if (thenNudge) focusPad(device.devID);
        return;
      }
      setDropping({ device, point });
    },
    [role, session.baseline],
  );

  const remove = (device: DeviceView) => {
    const refusal = removeRefusal(device);
    if (refusal) {
      showToast(refusal, 'warning');
      return;
    }
    dispatch({ type: 'remove', devID: device.devID });
    if (nudging === device.devID) setNudging(null);
    setOpened(null);
  };

  const summary =
    counts.added + counts.moved + counts.removed === 0
      ? 'No changes yet'
      : [
          counts.added && `${counts.added} added`,
          counts.moved && `${counts.moved} moved`,
          counts.removed && `${counts.removed} removed`,
        ]
          .filter(Boolean)
          .join(', ');

  const nudged = nudging ? placed.find((p) => p.device.devID === nudging) : undefined;

  return (
    <div className={styles.editDrawer}>
      <div className={styles.editHeader} role="toolbar" aria-label="Floor plan editing">
        <div className={styles.editTitleRow}>
          <h2 className={styles.editTitle}>Edit Floor Plan</h2>
          <span className={styles.toolbarSummary} aria-live="polite">
            {summary}
          </span>
        </div>
        <div className={styles.toolbarActions}>
          <Button
            size="small"
            isDisabled={save.isPending}
            onClick={() => {
              dispatch({ type: 'cancel' });
              exit();
            }}
          >
            Cancel
          </Button>
          <Button
            size="small"
            variation="primary"
            isDisabled={!hasChanges(session)}
            isLoading={save.isPending}
            loadingText="Saving…"
            onClick={() => {
              const body = saveRequest(session, floor.floorId);
              if (!body) return;
              if (body.dropDevicesList.length > MAX_FLOOR_CHANGES) {
                showToast(TOO_MANY_CHANGES_TEXT, 'warning');
                return;
              }
              // On failure the session stays as it is: nothing is lost on screen.
              save.mutate(body, { onSuccess: exit });
            }}
          >
            Save
          </Button>
        </div>
      </div>
      {nudged && (
        <PositionPad
          label={deviceLabel(nudged.device)}
          point={nudged.origin}
          padRef={(element) => {
            padElement.current = element;
          }}
          onMove={(origin) => dispatch({ type: 'move', devID: nudged.device.devID, origin })}
          onDone={() => setNudging(null)}
        />
      )}
      <EditDevicesDrawer
        devices={tiles}
        loading={offFloorQuery.isPending}
        failed={offFloorQuery.isError}
        refreshing={offFloorQuery.isFetching}
        onRefresh={() => void offFloorQuery.refetch()}
        placing={picked}
        onPick={setPicked}
        onPlaceAtCenter={(device) => drop(device, { x: 0.5, y: 0.5 }, true)}
        onDragMove={(device, x, y) => setGhost({ device, x, y })}
        onDragDrop={(device, x, y) => {
          setGhost(null);
          const point = clientToPlan(x, y);
          if (point) drop(device, point);
        }}
        onDragEnd={() => setGhost(null)}
      />
      {ghost &&
        createPortal(
          <div className={styles.ghost} style={{ left: ghost.x, top: ghost.y }} aria-hidden="true">
            <span className={styles.tileMark}>{typeMark(ghost.device.devType)}</span>
            {deviceLabel(ghost.device)}
          </div>,
          document.body,
        )}
      {dropping && (
        <DropDeviceDialog
          device={dropping.device}
          onCancel={() => setDropping(null)}
          onPlace={(details) => {
            dispatch({ type: 'add', device: dropping.device, origin: dropping.point, details });
            setDropping(null);
          }}
        />
      )}
      {opened && (
        <UnregisterDialog
          device={opened}
          onClose={() => setOpened(null)}
          onRemove={() => remove(opened)}
          onMove={() => {
            setOpened(null);
            focusPad(opened.devID);
          }}
        />
      )}
    </div>
  );
}
