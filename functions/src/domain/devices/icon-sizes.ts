import { iconSizeRange, Role, VALUE_SAVED_TEXT } from '@argentum/contracts';
import { notFound, validationError } from '../errors';
import type { AuthUser } from '../users/user';
import { accessibleFloor } from './access';
import { DEVICE_MESSAGES } from './texts';
import type { DevicePorts } from './ports';

/**
 * updateSensorSize: the caller's icon size for a device type on a floor (any member of the floor's
 * organization). A userID in the body must be the caller's own; another is answered like an unknown user.
 */
export async function saveIconSize(
  deps: DevicePorts,
  user: AuthUser,
  request: { userId?: string; floorId: string; devType: number; value: number },
): Promise<{ message: string; sensorSizes: Record<string, number> }> {
  if (request.userId !== undefined && request.userId !== user.userId)
    throw notFound(DEVICE_MESSAGES.userNotFound);
  const floor = await accessibleFloor(deps, user, request.floorId, { minRole: Role.readOnly });
  const { min, max } = iconSizeRange(request.devType);
  if (request.value < min || request.value > max)
    throw validationError(DEVICE_MESSAGES.iconSizeRange(min, max));
  await deps.iconSizes.set(
    user.userId,
    floor.id,
    request.devType,
    request.value,
    deps.clock.now().toISOString(),
  );
  return { message: VALUE_SAVED_TEXT, sensorSizes: await deps.iconSizes.get(user.userId, floor.id) };
}
