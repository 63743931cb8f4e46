export { findFloor, treeQueries } from './api/treeQueries';
export type { Building, Floor, FloorLocation, Organization } from './api/types';
export { FloorHeader } from './components/FloorHeader';
export { OrganizationTree } from './components/OrganizationTree';
export { floorHref, useSelectedFloorId } from './components/selection';
