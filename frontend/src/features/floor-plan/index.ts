import { lazy } from 'react';

/**
 * The floor view, loaded on demand: the plan, its devices and their tools are not part of the
 * initial bundle. Everything else exported here is small (the real-time client imports
 * applyDeviceUpdates without pulling the view in).
 */
// With edit mode, grouping, device configuration and the compare hand-off wired into its slots.
export const FloorView = lazy(() => import('./components/edit/EditableFloorView'));
export type { FloorViewFloor, FloorViewProps } from './components/FloorView';
export type { FloorViewStore } from './state/FloorViewProvider';
export { applyDeviceUpdates, applyLiveUpdates } from './api/deviceUpdates';
export type { DeviceUpdate } from './api/deviceMerge';
export { floorPlanQueries, type FloorRef } from './api/floorPlanQueries';
export {
  type FloorMode,
  type FloorModeAction,
  type FloorModeState,
  type ModeDevice,
} from './model/modeReducer';
export { applyCommandStatus } from './api/commands';
export { announceGroupingOutcome, type GroupingOutcome } from './api/editing';
