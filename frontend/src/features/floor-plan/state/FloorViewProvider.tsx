import { useQuery } from '@tanstack/react-query';
import {
  createContext,
  use,
  useCallback,
  useMemo,
  useReducer,
  useState,
  type Dispatch,
  type ReactNode,
} from 'react';
import { PLAN_START_HEIGHT, Role, type DeviceView, type GatewayElsewhere } from '@argentum/contracts';
import { canIn, useSessionUser } from '../../../shared/session/sessionStore';
import { floorPlanQueries, type FloorRef } from '../api/floorPlanQueries';
import { placedDevices, type PlanPoint } from '../components/edit/editSession';
import { loadHiddenTypes, loadLinksView } from '../model/view';
import {
  floorViewReducer,
  initialFloorViewState,
  type FloorViewAction,
  type FloorViewState,
} from './floorViewReducer';

/** The floor the view shows. */
export interface FloorViewFloor extends FloorRef {
  floorName: string;
  floorDevTypes: readonly number[];
}

/** What the plan offers the rest of the view: where a page point falls on it. */
export interface PlanGeometry {
  /** A point of the page as a position on the plan (0-1 of its width and height), null when off it. */
  clientToPlan(clientX: number, clientY: number): PlanPoint | null;
}

/**
 * One floor view's state and what is derived from it, for every component of the view (the plan,
 * the lists, the mode bar, edit mode's drawer): read with useFloorView(), changed through dispatch.
 */
export interface FloorViewStore {
  floor: FloorViewFloor;
  state: FloorViewState;
  dispatch: Dispatch<FloorViewAction>;
  /** The floor's devices as the server answered them (and live updates changed them). */
  savedDevices: readonly DeviceView[];
  /** The devices the view shows: edit mode's session while editing, else the saved ones. */
  devices: readonly DeviceView[];
  devicesById: ReadonlyMap<string, DeviceView>;
  /** Gateways the floor's devices report through that are on another floor (or none), by id. */
  gatewaysElsewhere: ReadonlyMap<string, GatewayElsewhere>;
  /**
   * Asks the server again for the floor's devices when its answer is older than `maxAgeMs`: a gateway
   * elsewhere is not on this floor's live channel, so its status is as fresh as that answer.
   */
  refreshDevices(maxAgeMs: number): void;
  sizes: Record<string, number>;
  /** The caller's role in the floor's organization is above 1 (may edit, group, upload). */
  canAdminister: boolean;
  /** The plan once it is drawn (null before). */
  plan: PlanGeometry | null;
  /** The plan registers its geometry here when it mounts (a ref callback). */
  setPlan(plan: PlanGeometry | null): void;
  /** Back to normal mode. */
  exit(): void;
}

const FloorViewContext = createContext<FloorViewStore | null>(null);

const EMPTY_DEVICES: DeviceView[] = [];
const EMPTY_SIZES: Record<string, number> = {};

/** Holds one floor's view state; mounted again (fresh) for another floor. */
export function FloorViewProvider({ floor, children }: { floor: FloorViewFloor; children: ReactNode }) {
  const user = useSessionUser();
  const devicesQuery = useQuery(floorPlanQueries.devices(floor));
  const [state, dispatch] = useReducer(floorViewReducer, floor.floorId, (floorId) =>
    initialFloorViewState({
      hiddenTypes: loadHiddenTypes(floorId),
      links: loadLinksView(),
      planHeight: PLAN_START_HEIGHT(window.innerHeight),
    }),
  );
  // State, not a ref: what reads it during render sees the plan once it is there.
  const [plan, setPlan] = useState<PlanGeometry | null>(null);

  const savedDevices = devicesQuery.data?.devices ?? EMPTY_DEVICES;
  const sizes = devicesQuery.data?.sensorSizes ?? EMPTY_SIZES;
  const draft = useMemo(
    () =>
      state.edit
        ? placedDevices(state.edit).map(({ device, origin }) => ({
            ...device,
            onFloor: true,
            floorOrigin: origin,
          }))
        : null,
    [state.edit],
  );
  const devices = draft ?? savedDevices;
  const devicesById = useMemo(() => new Map(devices.map((device) => [device.devID, device])), [devices]);
  const gatewaysElsewhere = useMemo(
    () => new Map((devicesQuery.data?.gatewaysElsewhere ?? []).map((g) => [g.devID, g])),
    [devicesQuery.data],
  );
  const { dataUpdatedAt, refetch } = devicesQuery;
  const refreshDevices = useCallback(
    (maxAgeMs: number) => {
      if (Date.now() - dataUpdatedAt > maxAgeMs) void refetch();
    },
    [dataUpdatedAt, refetch],
  );
  const exit = useCallback(() => dispatch({ type: 'mode', action: { type: 'exit' } }), []);
  const canAdminister = canIn(user, floor.orgId, Role.admin);

  const store = useMemo<FloorViewStore>(
    () => ({
      floor,
      state,
      dispatch,
      savedDevices,
      devices,
      devicesById,
      gatewaysElsewhere,
      refreshDevices,
      sizes,
      canAdminister,
      plan,
      setPlan,
      exit,
    }),
    [
      floor,
      state,
      savedDevices,
      devices,
      devicesById,
      gatewaysElsewhere,
      refreshDevices,
      sizes,
      canAdminister,
      plan,
      exit,
    ],
  );
  return <FloorViewContext value={store}>{children}</FloorViewContext>;
}

/** The floor view's state, inside a FloorViewProvider. */
export function useFloorView(): FloorViewStore {
  const store = use(FloorViewContext);
  if (!store) throw new Error('useFloorView is used outside a FloorViewProvider');
  return store;
}
