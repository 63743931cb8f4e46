import {
  CANNOT_GROUP_TYPE_TEXT,
  COMPARE_ITSELF_TEXT,
  DEVICE_NAME_AND_PORT_REQUIRED_TEXT,
  DEVICE_NAME_EMPTY_TEXT,
  DEVICE_NAME_MAX_LENGTH,
  DEVICE_NAME_PATTERN,
  DEVICE_NAME_REQUIRED_TEXT,
  DeviceType,
  type DeviceView,
  GROUP_NAME_UNIQUE_TEXT,
  GROUPABLE_DEVICE_TYPES,
  MIN_ROLE,
  PORT_DEVICE_TYPES,
  NOT_IN_GROUP_TEXT,
  type RoleNumber,
  SAME_TYPE_TEXT,
  SELECT_DATA_POINTS_TEXT,
  SELECT_TO_GROUP_TEXT,
  SELECT_TO_UNGROUP_TEXT,
  SINGLE_DEVICE_GROUP_TEXT,
  SPECIAL_CHARACTERS_TEXT,
  UNGROUP_BEFORE_REMOVE_TEXT,
  UNGROUP_FIRST_TEXT,
} from '@argentum/contracts';
import type { DropDetails } from './editSession';

/** Gateways (type 0) are placed only by top-level users; the specification gives no text for it. */
export const GATEWAY_ROLE_TEXT = 'Only an Argentum (top level) user can place a gateway on the floor.';
const DEVICE_NAME_TOO_LONG_TEXT = `Device names can be at most ${DEVICE_NAME_MAX_LENGTH} characters long.`;

/** The name rule of devices, data points and sensors; `emptyText` is the caller's documented text. */
export function deviceNameProblem(
  name: string,
  emptyText: string = DEVICE_NAME_REQUIRED_TEXT,
): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return emptyText;
  if (!DEVICE_NAME_PATTERN.test(trimmed)) return SPECIAL_CHARACTERS_TEXT;
  if ([...trimmed].length > DEVICE_NAME_MAX_LENGTH) return DEVICE_NAME_TOO_LONG_TEXT;
  return null;
}

/** Which node port the device is wired to: Port-1 (0), Port-2 (1) or Both (2). */
export const PORT_CHOICES = [
  { value: 0, label: 'Port-1' },
  { value: 1, label: 'Port-2' },
  { value: 2, label: 'Both' },
] as const;

export const needsPort = (device: DeviceView) => PORT_DEVICE_TYPES.includes(device.devType);

const hasPort = (port: DeviceView['port']) => port !== undefined && port !== '' && port !== null;

/** Whether dropping this device needs the small form first (a name, a port or the data points). */
export function dropNeedsForm(device: DeviceView): boolean {
  if (deviceNameProblem(device.devName) !== null) return true;
  if (needsPort(device) && !hasPort(device.port)) return true;
  if (device.devType === DeviceType.ieq && device.dataPoints.length === 0) return true;
  return false;
}

/** Whether the user may drop this device at all (gateways only for role 3). */
export function dropRefusal(device: DeviceView, role: RoleNumber | undefined): string | null {
  if (device.devType === DeviceType.gateway && (role ?? 0) < MIN_ROLE.gateways) return GATEWAY_ROLE_TEXT;
  return null;
}

/**
 * The drop form's check (section 5): a name; for a power node a name and a port; for an IEQ sensor
 * at least one data point. Null when the device may go on the floor.
 */
export function dropFormProblem(device: DeviceView, details: DropDetails): string | null {
  const name = details.devName ?? device.devName;
  if (needsPort(device)) {
    const port = details.port ?? device.port;
    if (name.trim() === '' || !hasPort(port)) return DEVICE_NAME_AND_PORT_REQUIRED_TEXT;
  }
  const nameProblem = deviceNameProblem(name);
  if (nameProblem) return nameProblem;
  if (device.devType === DeviceType.ieq && (details.dataPoints ?? device.dataPoints).length === 0) {
    return SELECT_DATA_POINTS_TEXT;
  }
  return null;
}

/** Removal in edit mode: a grouped device stays until it is ungrouped. */
export const removeRefusal = (device: DeviceView): string | null =>
  device.groupNumber !== undefined ? UNGROUP_BEFORE_REMOVE_TEXT : null;

/**
 * The configuration drawer's Save (section 5): an empty name disables it; a motion sensor or an IEQ
 * sensor also needs at least one data point. The motion sensor's empty name has its own text.
 */
export function configSaveProblem(device: DeviceView, name: string, dataPointCount: number): string | null {
  const emptyText = device.devType === DeviceType.motion ? DEVICE_NAME_EMPTY_TEXT : DEVICE_NAME_REQUIRED_TEXT;
  const problem = deviceNameProblem(name, emptyText);
  if (problem) return problem;
  if ((device.devType === DeviceType.motion || device.devType === DeviceType.ieq) && dataPointCount === 0) {
    return SELECT_DATA_POINTS_TEXT;
  }
  return null;
}

// Grouping (sections 4 and 5).

export type GroupingKind = 'grouping' | 'ungrouping';

export interface SelectionStep {
  selection: DeviceView[];
  /** The documented warning when the device was refused; the selection is then unchanged. */
  warning: string | null;
}

/** A click on a device while grouping: select it, unselect it, or refuse it with the documented warning. */
export function toggleGroupingSelection(selection: readonly DeviceView[], device: DeviceView): SelectionStep {
  if (selection.some((d) => d.devID === device.devID)) {
    return { selection: selection.filter((d) => d.devID !== device.devID), warning: null };
  }
  const refuse = (warning: string) => ({ selection: [...selection], warning });
  if (!GROUPABLE_DEVICE_TYPES.includes(device.devType)) return refuse(CANNOT_GROUP_TYPE_TEXT);
  const [first] = selection;
  if (first && first.devType !== device.devType) return refuse(SAME_TYPE_TEXT);
  if (device.groupNumber !== undefined) return refuse(UNGROUP_FIRST_TEXT);
  return { selection: [...selection, device], warning: null };
}

/** A click on a device while ungrouping: only grouped devices may be picked. */
export function toggleUngroupingSelection(
  selection: readonly DeviceView[],
  device: DeviceView,
): SelectionStep {
  if (selection.some((d) => d.devID === device.devID)) {
    return { selection: selection.filter((d) => d.devID !== device.devID), warning: null };
  }
  if (device.groupNumber === undefined) return { selection: [...selection], warning: NOT_IN_GROUP_TEXT };
  return { selection: [...selection, device], warning: null };
}

/** Save is disabled with fewer than 2 devices (grouping) or none (ungrouping). */
export const canSaveSelection = (kind: GroupingKind, selection: readonly DeviceView[]) =>
  kind === 'grouping' ? selection.length >= 2 : selection.length >= 1;

/** What stops a Save that was asked for anyway (Enter, a stale click): the documented warning. */
export function selectionSaveProblem(kind: GroupingKind, selection: readonly DeviceView[]): string | null {
  if (kind === 'ungrouping') return selection.length === 0 ? SELECT_TO_UNGROUP_TEXT : null;
  if (selection.length === 0) return SELECT_TO_GROUP_TEXT;
  if (selection.length === 1) return SINGLE_DEVICE_GROUP_TEXT;
  const names = selection.map((d) => d.devName.trim().toLowerCase());
  if (new Set(names).size !== names.length) return GROUP_NAME_UNIQUE_TEXT;
  return null;
}

/** Compare IEQ: the second device must be another IEQ sensor. */
export function compareProblem(
  first: Pick<DeviceView, 'devID' | 'devType'>,
  second: Pick<DeviceView, 'devID' | 'devType'>,
): string | null {
  if (first.devID === second.devID) return COMPARE_ITSELF_TEXT;
  if (first.devType !== DeviceType.ieq || second.devType !== DeviceType.ieq) return SAME_TYPE_TEXT;
  return null;
}
