export { orgLogoQueries } from './api/orgLogoQueries';
export { OrgLogo } from './components/OrgLogo';
