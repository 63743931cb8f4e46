export * from '../device-types';
export * from './topics';
export * from './device-protocol';
export * from './browser-pushes';
