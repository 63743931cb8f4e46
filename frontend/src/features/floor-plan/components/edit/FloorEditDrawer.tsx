import { Button } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { type DeviceView, roleIn } from '@argentum/contracts';
import { MAX_FLOOR_CHANGES } from '@argentum/contracts/requests';
import { useCallback, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useSessionUser } from '../../../../shared/session/sessionStore';
import { showToast } from '../../../../shared/ui/toastStore';
import { editingQueries, useSaveFloorEdits } from '../../api/editing';
import { useFloorView } from '../../state/FloorViewProvider';
import { DropDeviceDialog } from './DropDeviceDialog';
import { EditDevicesDrawer } from './EditDevicesDrawer';
import {
  changeCounts,
  type EditAction,
  hasChanges,
  offFloorDevices,
  placedDevices,
  type PlanPoint,
  saveRequest,
  startSession,
} from './editSession';

const EMPTY_SESSION = startSession([]);
import { deviceLabel, typeMark } from './deviceLabels';
import styles from './edit.module.css';
import { PositionPad } from './PositionPad';
import { dropNeedsForm, dropRefusal, removeRefusal } from './rules';
import { UnregisterDialog } from './UnregisterDialog';

const TOO_MANY_CHANGES_TEXT = `Save at most ${MAX_FLOOR_CHANGES} changes at a time: save these, then go on.`;

/**
 * Edit mode (issue 9 item 6), rendered in the floor view's right drawer while the view is in edit
 * mode. The floor view's state holds the session (editSession.ts): it starts from the floor's devices
 * when edit mode opens and tracks every device added, moved or removed; the plan shows the session's
 * devices and its drags and taps go to the session. Save sends them in ONE all-or-nothing
 * /updateOnFloorStatus (on failure nothing is lost); Cancel reverts everything.
 */
export function FloorEditDrawer() {
  const { floor, state, dispatch: dispatchView, plan, exit } = useFloorView();
  const session = state.edit ?? EMPTY_SESSION;
  const dispatch = useCallback(
    (action: EditAction) => dispatchView({ type: 'edit', action }),
    [dispatchView],
  );
  const user = useSessionUser();
  const role = roleIn(user.orgRoles, floor.orgId);
  const offFloorQuery = useQuery(editingQueries.offFloorDevices(floor.orgId, floor.floorId));
  const save = useSaveFloorEdits();
  const [picked, setPicked] = useState<DeviceView | null>(null);
  const [ghost, setGhost] = useState<{ device: DeviceView; x: number; y: number } | null>(null);
  const [dropping, setDropping] = useState<{ device: DeviceView; point: PlanPoint } | null>(null);
  /** The device the position pad moves (the one just placed, or chosen on the plan). */
  const [nudging, setNudging] = useState<string | null>(null);
  const padElement = useRef<HTMLDivElement | null>(null);

  const placed = useMemo(() => placedDevices(session), [session]);
  const tiles = useMemo(
    () => offFloorDevices(session, offFloorQuery.data ?? []),
    [session, offFloorQuery.data],
  );
  const counts = changeCounts(session);

  // The placed device whose unregister popup is open (a tap on the plan in edit mode opens it).
  const opened = state.editOpenedId
    ? (placed.find((p) => p.device.devID === state.editOpenedId)?.device ?? null)
    : null;
  const setOpened = (device: DeviceView | null) =>
    dispatchView({ type: 'editOpen', devID: device?.devID ?? null });

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
    [role, session.baseline, dispatch],
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
          const point = plan?.clientToPlan(x, y) ?? null;
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
