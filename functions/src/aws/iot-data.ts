import { IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { lazy } from './lazy';

/**
 * The IoT data plane as the platform uses it (the client and its commands), in one module that callers
 * import on first use (`await import('../aws/iot-data')`): most invocations of the functions that may
 * publish (a presence sweep with no change, a vendor read, a command history) publish nothing, so its
 * client is not read at their cold start (docs/architecture.md, Lambda runtime and bundling).
 */
export { DeleteConnectionCommand, PublishCommand } from '@aws-sdk/client-iot-data-plane';
export const iotData = lazy(() => new IoTDataPlaneClient({}));
