import { Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import type { DeviceView, RoleNumber } from '@argentum/events/contracts';
import { MAX_FLOOR_CHANGES } from '@argentum/events/contracts/requests';
import { type ReactNode, useCallback, useMemo, useReducer, useRef, useState } from 'react';
import { showToast } from '../../../../shared/ui/toastStore';
import { editingQueries, useSaveFloorEdits } from '../../api/editing';
import { DropDeviceDialog } from './DropDeviceDialog';
import { EditDevicesDrawer } from './EditDevicesDrawer';
import { EditOverlay } from './EditOverlay';
import {
  changeCounts,
  type DropDetails,
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
import { pointOnPlan } from './pointerDrag';
import { dropNeedsForm, dropRefusal, removeRefusal } from './rules';
import { UnregisterDialog } from './UnregisterDialog';

export const TOO_MANY_CHANGES_TEXT = `Save at most ${MAX_FLOOR_CHANGES} changes at a time: save these, then go on.`;

export interface FloorEditingOptions {
  orgID: string;
  floorID: string;
  /** The devices on the floor now (the floor view's query); the session starts from them. */
  devices: readonly DeviceView[];
  /** The user's role in the floor's organization. */
  role: RoleNumber | undefined;
  /** Leave edit mode (after Save or Cancel). */
  onExit: () => void;
  /** The floor view's device icon, reused on the edit markers. */
  renderIcon?: (device: DeviceView) => ReactNode;
}

export interface FloorEditing {
  /** Goes inside the plan's box (position: relative, the plan's size, inside the zoom): edit mode's device layer. */
  overlay: ReactNode;
  /** The right drawer's content (Devices tab). */
  drawer: ReactNode;
  /** Save / Cancel bar with what the session changed. */
  toolbar: ReactNode;
  /** Dialogs and the tile under a dragging pointer; render anywhere. */
  dialogs: ReactNode;
  /** The devices as the session has them (for the floor view's legend or counts). */
  placed: ReturnType<typeof placedDevices>;
}

/**
 * Edit mode (issue 9 item 6). Mount it only while the floor view is in edit mode: it snapshots the
 * floor's devices when it mounts, tracks every device added, moved or removed, and Save sends them
 * in ONE all-or-nothing /updateOnFloorStatus. Cancel reverts everything.
 */
export function useFloorEditing({
  orgID,
  floorID,
  devices,
  role,
  onExit,
  renderIcon,
}: FloorEditingOptions): FloorEditing {
  const [session, dispatch] = useReducer(editSessionReducer, devices, startSession);
  const offFloorQuery = useQuery(editingQueries.offFloorDevices(orgID, floorID));
  const save = useSaveFloorEdits();
  const overlayRef = useRef<HTMLDivElement | null>(null);
  const [placing, setPlacing] = useState<DeviceView | null>(null);
  const [ghost, setGhost] = useState<{ device: DeviceView; x: number; y: number } | null>(null);
  const [dropping, setDropping] = useState<{ device: DeviceView; point: PlanPoint } | null>(null);
  const [opened, setOpened] = useState<DeviceView | null>(null);

  const placed = useMemo(() => placedDevices(session), [session]);
  const tiles = useMemo(
    () => offFloorDevices(session, offFloorQuery.data ?? []),
    [session, offFloorQuery.data],
  );
  const counts = changeCounts(session);
  const total = counts.added + counts.moved + counts.removed;

  /** A device arrives on the plan: refused, asked for what it lacks, or placed. */
  const drop = useCallback(
    (device: DeviceView, point: PlanPoint) => {
      setPlacing(null);
      const refusal = dropRefusal(device, role);
      if (refusal) {
        showToast(refusal, 'warning');
        return;
      }
      // A floor device taken off in this session goes back as it was.
      if (session.baseline.has(device.devID) || !dropNeedsForm(device)) {
        dispatch({ type: 'add', device, origin: point });
        return;
      }
      setDropping({ device, point });
    },
    [role, session.baseline],
  );

  const remove = useCallback((device: DeviceView) => {
    const refusal = removeRefusal(device);
    if (refusal) {
      showToast(refusal, 'warning');
      return;
    }
    dispatch({ type: 'remove', devID: device.devID });
    setOpened(null);
  }, []);

  const overlay = (
    <EditOverlay
      overlayRef={overlayRef}
      placed={placed}
      placing={placing}
      onPlace={drop}
      onCancelPlacing={() => setPlacing(null)}
      onMove={(devID, origin) => dispatch({ type: 'move', devID, origin })}
      onOpen={setOpened}
      onRemove={remove}
      renderIcon={renderIcon}
    />
  );

  const drawer = (
    <EditDevicesDrawer
      devices={tiles}
      loading={offFloorQuery.isPending}
      failed={offFloorQuery.isError}
      refreshing={offFloorQuery.isFetching}
      onRefresh={() => void offFloorQuery.refetch()}
      placing={placing}
      onPick={setPlacing}
      onPlaceAtCenter={(device) => drop(device, { x: 0.5, y: 0.5 })}
      onDragMove={(device, x, y) => setGhost({ device, x, y })}
      onDragDrop={(device, x, y) => {
        setGhost(null);
        const point = pointOnPlan(overlayRef.current, x, y);
        if (point) drop(device, point);
      }}
      onDragEnd={() => setGhost(null)}
    />
  );

  const summary =
    total === 0
      ? 'No changes yet'
      : [
          counts.added && `${counts.added} added`,
          counts.moved && `${counts.moved} moved`,
          counts.removed && `${counts.removed} removed`,
        ]
          .filter(Boolean)
          .join(', ');

  const toolbar = (
    <div className={styles.toolbar} role="toolbar" aria-label="Floor plan editing">
      <span className={styles.toolbarTitle}>Editing floor plan</span>
      <span className={styles.toolbarSummary} aria-live="polite">
        {summary}
      </span>
      <span className={styles.toolbarActions}>
        <Button
          size="small"
          isDisabled={save.isPending}
          onClick={() => {
            dispatch({ type: 'cancel' });
            setPlacing(null);
            onExit();
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
            const body = saveRequest(session, floorID);
            if (!body) return;
            if (body.dropDevicesList.length > MAX_FLOOR_CHANGES) {
              showToast(TOO_MANY_CHANGES_TEXT, 'warning');
              return;
            }
            // On failure the session stays as it is: nothing is lost on screen.
            save.mutate(body, { onSuccess: onExit });
          }}
        >
          Save
        </Button>
      </span>
    </div>
  );

  const dialogs = (
    <>
      {ghost && (
        <div className={styles.ghost} style={{ left: ghost.x, top: ghost.y }} aria-hidden="true">
          <span className={styles.tileMark}>{typeMark(ghost.device.devType)}</span>
          {deviceLabel(ghost.device)}
        </div>
      )}
      {dropping && (
        <DropDeviceDialog
          device={dropping.device}
          onCancel={() => setDropping(null)}
          onPlace={(details: DropDetails) => {
            dispatch({ type: 'add', device: dropping.device, origin: dropping.point, details });
            setDropping(null);
          }}
        />
      )}
      {opened && (
        <UnregisterDialog device={opened} onClose={() => setOpened(null)} onRemove={() => remove(opened)} />
      )}
    </>
  );

  return { overlay, drawer, toolbar, dialogs, placed };
}
