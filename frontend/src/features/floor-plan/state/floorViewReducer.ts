import type { DeviceView } from '@argentum/contracts';
import {
  editSessionReducer,
  startSession,
  type EditAction,
  type EditSession,
} from '../components/edit/editSession';
import {
  floorModeReducer,
  initialModeState,
  type FloorMode,
  type FloorModeAction,
  type FloorModeState,
} from '../model/modeReducer';

/** The floor view's panels that open and close over or beside the plan. */
export type FloorPanel = 'filters' | 'details' | 'links' | 'upload';

/**
 * Everything one floor's view remembers while it is open: the mode, the panels, which device is
 * selected, pinned or shows its popup, the plan's height, the hidden types, and edit mode's session.
 */
export interface FloorViewState {
  mode: FloorModeState;
  panels: Readonly<Record<FloorPanel, boolean>>;
  hiddenTypes: readonly number[];
  selectedId: string | null;
  /** A device chosen from the list or a notification, marked for DEVICE_HIGHLIGHT_MS. */
  pinnedId: string | null;
  popupId: string | null;
  planHeight: number;
  /** Edit mode: the devices added, moved and removed since it opened (null outside edit mode). */
  edit: EditSession | null;
  /** Edit mode: the placed device whose unregister popup is open. */
  editOpenedId: string | null;
}

export type FloorViewAction =
  /** Enters a mode (the OPTIONS menu); edit mode starts its session from the floor's saved devices. */
  | { type: 'enterMode'; mode: FloorMode; devices: readonly DeviceView[] }
  | { type: 'mode'; action: FloorModeAction }
  | { type: 'toggle'; panel: FloorPanel; open?: boolean }
  | { type: 'hiddenTypes'; types: readonly number[] }
  /** A device was clicked, tapped or chosen from the list: what that means depends on the mode. */
  | { type: 'activate'; device: DeviceView }
  | { type: 'popup'; devID: string | null }
  | { type: 'pin'; devID: string | null }
  /** 'View Device' from a notification: pinned and its popup shown. */
  | { type: 'highlight'; devID: string }
  | { type: 'select'; devID: string | null }
  | { type: 'planHeight'; height: number }
  /** Edit mode: a change to the session (add, move, remove, cancel). */
  | { type: 'edit'; action: EditAction }
  | { type: 'editOpen'; devID: string | null };

export function initialFloorViewState(init: {
  hiddenTypes: readonly number[];
  planHeight: number;
  /** The Sensor-Node(link) view, as last chosen on any floor. */
  links?: boolean;
}): FloorViewState {
  return {
    mode: initialModeState,
    panels: { filters: false, details: false, links: init.links ?? false, upload: false },
    hiddenTypes: init.hiddenTypes,
    selectedId: null,
    pinnedId: null,
    popupId: null,
    planHeight: init.planHeight,
    edit: null,
    editOpenedId: null,
  };
}

/** A mode change keeps the edit session only while edit mode stays on. */
function withMode(state: FloorViewState, mode: FloorModeState): FloorViewState {
  if (mode === state.mode) return state;
  const editing = mode.mode === 'edit';
  return {
    ...state,
    mode,
    edit: editing ? state.edit : null,
    editOpenedId: editing ? state.editOpenedId : null,
  };
}

export function floorViewReducer(state: FloorViewState, action: FloorViewAction): FloorViewState {
  switch (action.type) {
    case 'enterMode': {
      const next = withMode(
        { ...state, panels: { ...state.panels, filters: false } },
        floorModeReducer(state.mode, { type: 'enter', mode: action.mode }),
      );
      return next.mode.mode === 'edit' && state.mode.mode !== 'edit'
        ? { ...next, edit: startSession(action.devices), editOpenedId: null }
        : next;
    }
    case 'mode':
      return withMode(state, floorModeReducer(state.mode, action.action));
    case 'toggle':
      return {
        ...state,
        panels: { ...state.panels, [action.panel]: action.open ?? !state.panels[action.panel] },
      };
    case 'hiddenTypes':
      return { ...state, hiddenTypes: action.types };
    case 'activate': {
      const { device } = action;
      const mode = state.mode.mode;
      if (mode === 'grouping' || mode === 'ungrouping' || mode === 'compareIEQ')
        return withMode(state, floorModeReducer(state.mode, { type: 'pick', device }));
      if (mode === 'edit') {
        const placed =
          state.edit !== null &&
          !state.edit.removed.has(device.devID) &&
          (state.edit.baseline.has(device.devID) || state.edit.added.has(device.devID));
        return placed ? { ...state, editOpenedId: device.devID } : state;
      }
      // A second activation of the device whose popup shows deselects it (and closes its drawer).
      const again = state.selectedId === device.devID && state.popupId === device.devID;
      return {
        ...state,
        selectedId: again ? null : device.devID,
        pinnedId: device.devID,
        popupId: device.devID,
      };
    }
    case 'popup':
      return state.popupId === action.devID ? state : { ...state, popupId: action.devID };
    case 'pin':
      return { ...state, pinnedId: action.devID };
    case 'highlight':
      return { ...state, pinnedId: action.devID, popupId: action.devID };
    case 'select':
      return { ...state, selectedId: action.devID };
    case 'planHeight':
      return { ...state, planHeight: action.height };
    case 'edit':
      return state.edit ? { ...state, edit: editSessionReducer(state.edit, action.action) } : state;
    case 'editOpen':
      return { ...state, editOpenedId: action.devID };
  }
}
