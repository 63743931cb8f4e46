/**
 * node:zlib, loaded on first use. Every API Lambda reaches the modules that use it (the gzip answers,
 * the logo check), few of their requests do, and loading it at cold start costs about a millisecond
 * (docs/architecture.md, Lambda runtime and bundling).
 */
export const zlib = () => process.getBuiltinModule('node:zlib');
