import {
  CANNOT_GROUP_TYPE_TEXT,
  COMPARE_ITSELF_TEXT,
  GROUPABLE_DEVICE_TYPES,
  NOT_IN_GROUP_TEXT,
  UNGROUP_FIRST_TEXT,
  SAME_TYPE_TEXT,
} from '@argentum/contracts';
import { DeviceType } from '@argentum/contracts';

/** The floor view's modes (specification section 4): they exclude each other. */
export type FloorMode = 'normal' | 'grouping' | 'ungrouping' | 'compareIEQ' | 'edit';

/** What the reducer needs to know of a device to decide a selection. */
export interface ModeDevice {
  devID: string;
  devType: number;
  groupNumber?: number;
}

export interface FloorModeState {
  mode: FloorMode;
  /** Grouping and ungrouping: the devices picked so far, in the order they were picked. */
  selection: string[];
  /** The device type of the grouping selection (grouping picks one type only). */
  selectionType: number | null;
  /** Compare IEQ: the first and the second device. */
  compareFirst: ModeDevice | null;
  compareSecond: ModeDevice | null;
  /** The documented refusal of the last pick, for a warning (null: the last pick was accepted). */
  warning: string | null;
}

export type FloorModeAction =
  /** Enters a mode; every other mode (and its selection) ends. Entering 'normal' ends them all. */
  | { type: 'enter'; mode: FloorMode }
  /** Back to normal (Cancel, Escape, after a save). */
  | { type: 'exit' }
  /** A device was clicked, tapped or chosen from the device list while a mode is on. */
  | { type: 'pick'; device: ModeDevice }
  /** Empties the grouping/ungrouping selection (after a save) without leaving the mode. */
  | { type: 'clearSelection' }
  | { type: 'dismissWarning' };

export const initialModeState: FloorModeState = {
  mode: 'normal',
  selection: [],
  selectionType: null,
  compareFirst: null,
  compareSecond: null,
  warning: null,
};

const enter = (mode: FloorMode): FloorModeState => ({ ...initialModeState, mode });

export function floorModeReducer(state: FloorModeState, action: FloorModeAction): FloorModeState {
  switch (action.type) {
    case 'enter':
      // Choosing the mode that is on turns it off (a menu toggle).
      return state.mode === action.mode ? enter('normal') : enter(action.mode);
    case 'exit':
      return enter('normal');
    case 'clearSelection':
      return { ...state, selection: [], selectionType: null, warning: null };
    case 'dismissWarning':
      return state.warning === null ? state : { ...state, warning: null };
    case 'pick':
      return pick(state, action.device);
  }
}

function pick(state: FloorModeState, device: ModeDevice): FloorModeState {
  switch (state.mode) {
    case 'grouping':
      return pickToGroup(state, device);
    case 'ungrouping':
      return pickToUngroup(state, device);
    case 'compareIEQ':
      return pickToCompare(state, device);
    default:
      return state;
  }
}

function toggle(state: FloorModeState, devID: string): string[] {
  return state.selection.includes(devID)
    ? state.selection.filter((id) => id !== devID)
    : [...state.selection, devID];
}

function pickToGroup(state: FloorModeState, device: ModeDevice): FloorModeState {
  if (!GROUPABLE_DEVICE_TYPES.includes(device.devType)) return { ...state, warning: CANNOT_GROUP_TYPE_TEXT };
  if (state.selectionType !== null && state.selection.length > 0 && device.devType !== state.selectionType)
    return { ...state, warning: SAME_TYPE_TEXT };
  // A device already in a group is ungrouped first (flooredit: the specification's warning).
  if (
    device.groupNumber !== undefined &&
    device.groupNumber !== null &&
    !state.selection.includes(device.devID)
  )
    return { ...state, warning: UNGROUP_FIRST_TEXT };
  const selection = toggle(state, device.devID);
  return {
    ...state,
    selection,
    selectionType: selection.length === 0 ? null : device.devType,
    warning: null,
  };
}

function pickToUngroup(state: FloorModeState, device: ModeDevice): FloorModeState {
  if (device.groupNumber === undefined || device.groupNumber === null)
    return { ...state, warning: NOT_IN_GROUP_TEXT };
  return { ...state, selection: toggle(state, device.devID), warning: null };
}

function pickToCompare(state: FloorModeState, device: ModeDevice): FloorModeState {
  const first = state.compareFirst;
  if (first === null || state.compareSecond !== null) {
    // A new comparison starts with an IEQ sensor.
    if (device.devType !== DeviceType.ieq) return { ...state, warning: SAME_TYPE_TEXT };
    return { ...state, compareFirst: device, compareSecond: null, warning: null };
  }
  if (device.devID === first.devID) return { ...state, warning: COMPARE_ITSELF_TEXT };
  if (device.devType !== first.devType) return { ...state, warning: SAME_TYPE_TEXT };
  return { ...state, compareSecond: device, warning: null };
}

/** How a device is marked on the plan and in the list by the current mode. */
export type ModeMark = 'selected' | 'first' | 'second' | undefined;

export function modeMark(state: FloorModeState, devID: string): ModeMark {
  if (state.compareFirst?.devID === devID) return 'first';
  if (state.compareSecond?.devID === devID) return 'second';
  if (state.selection.includes(devID)) return 'selected';
  return undefined;
}
