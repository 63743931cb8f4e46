/**
 * The contracts shared by the front end, the functions and the device simulator: role codes and
 * rules, the specifications' texts and constants, and name rules. The API calls, their paths and
 * schemas are on their own paths (`api-paths.ts`, `api.ts`).
 */
export * from './roles';
export * from './names';
export * from './texts';
export * from './email';
export * from './wire';
export * from './devices';
export * from './telemetry';
export * from './control';
export * from './notifications';
export * from './integrations';
export * from './theme';
export * from './control-values';
export * from './realtime';
export * from './session';
export * from './storable';
