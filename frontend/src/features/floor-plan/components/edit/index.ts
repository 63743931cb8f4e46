/** Edit mode, grouping, device configuration and the compare hand-off of the floor view (issue 9 items 6-9). */
export { DeviceConfigDrawer } from './DeviceConfigDrawer';
export { GroupBadge } from './EditOverlay';
export { GroupingPanel } from './GroupingPanel';
export { sensorCompareHref, useCompareNavigation } from './useCompareNavigation';
export { type FloorEditing, type FloorEditingOptions, useFloorEditing } from './useFloorEditing';
export { compareProblem, toggleSelection } from './rules';
