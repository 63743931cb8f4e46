import {
  ALARM_SETTINGS_SAVED_TEXT,
  hasRole,
  type OrganizationAlarmSettings,
  Role,
  roleIn,
} from '@argentum/contracts';
import { forbidden, notFound } from '../errors';
import { NOT_FOUND_MESSAGES } from '../tree/texts';
import type { AuthUser } from '../users/user';

/** Where an organization's alarm settings live (stores/alarm-settings.ts: its item). */
export interface AlarmSettingsStore {
  get(orgId: string, fresh?: boolean): Promise<OrganizationAlarmSettings>;
  /** False when the organization does not exist (or was deleted). */
  set(orgId: string, settings: OrganizationAlarmSettings, now: string): Promise<boolean>;
}

export interface AlarmSettingsPorts {
  alarmSettings: AlarmSettingsStore;
  clock: { now(): Date };
}

/** Members of another organization get the answer of an unknown one; members below admin 403. */
function checkAdmin(user: AuthUser, orgId: string) {
  if (roleIn(user.orgRoles, orgId) === undefined) throw notFound(NOT_FOUND_MESSAGES.organization);
  if (!hasRole(user.orgRoles, orgId, Role.admin)) throw forbidden();
}

/** An organization's alarm settings, for its admins (the settings screen). */
export async function getAlarmSettings(
  deps: AlarmSettingsPorts,
  user: AuthUser,
  orgId: string,
): Promise<OrganizationAlarmSettings & { orgID: string }> {
  checkAdmin(user, orgId);
  return { orgID: orgId, ...(await deps.alarmSettings.get(orgId, true)) };
}

/** Saves an organization's alarm settings (its admins only). */
export async function setAlarmSettings(
  deps: AlarmSettingsPorts,
  user: AuthUser,
  orgId: string,
  settings: OrganizationAlarmSettings,
): Promise<{ message: string } & OrganizationAlarmSettings> {
  checkAdmin(user, orgId);
  if (!(await deps.alarmSettings.set(orgId, settings, deps.clock.now().toISOString())))
    throw notFound(NOT_FOUND_MESSAGES.organization);
  return { message: ALARM_SETTINGS_SAVED_TEXT, ...settings };
}
