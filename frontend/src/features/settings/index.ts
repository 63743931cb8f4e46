export type { AdminOrganization } from './api/types';
export { PlatformSettings } from './components/PlatformSettings';
