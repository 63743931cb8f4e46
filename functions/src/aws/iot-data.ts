import { IoTDataPlaneClient } from '@aws-sdk/client-iot-data-plane';
import { lazy } from './lazy';

export const iotData = lazy(() => new IoTDataPlaneClient({}));
