/** Edit mode, grouping, device configuration and the compare hand-off of the floor view (issue 9 items 6-9). */
export { DeviceConfigDrawer } from './DeviceConfigDrawer';
export { FloorEditDrawer } from './FloorEditDrawer';
export { GroupBadge } from './GroupBadge';
export { GroupingPanel } from './GroupingPanel';
export { sensorCompareHref, useCompareNavigation } from './useCompareNavigation';
export { compareProblem, toggleSelection } from './rules';
