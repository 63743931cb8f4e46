export * from './devices';
export * from './topics';
export * from './device-protocol';
export * from './browser-pushes';
