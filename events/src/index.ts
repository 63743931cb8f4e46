export * from './devices';
export * from './topics';
export * from './messages';
export * from './browser-messages';
