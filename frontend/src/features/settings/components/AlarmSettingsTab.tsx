import { Alert, Button, CheckboxField, Loader, SelectField, Text, TextField } from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import {
  ALARM_SETTINGS_SAVED_TEXT,
  COMFORT_ALARM_AFTER_MINUTES,
  DEFAULT_ALARM_SETTINGS,
  OFFLINE_GRACE_MINUTES_RANGE,
  type OrganizationAlarmSettings,
  SETTINGS_SOMETHING_WRONG_TEXT,
} from '@argentum/contracts';
import { ApiError } from '../../../shared/api/client';
import { showToast } from '../../../shared/ui/toastStore';
import { settingsMutations, settingsQueries } from '../api/settingsApi';
import type { AdminOrganization } from '../api/types';
import styles from './Settings.module.css';

/**
 * Alarms: per organization, how long a device must be offline before it notifies (flapping within
 * that time is one episode) and whether devices on no floor raise offline alarms.
 */
export function AlarmSettingsTab({ organizations }: { organizations: readonly AdminOrganization[] }) {
  const [chosen, setOrgId] = useState('');
  // An administrator of one organization has it chosen, also when the tree arrives after the dialog opened.
  const only = organizations.length === 1 ? organizations[0]?.orgID : undefined;
  const orgId = chosen || only || '';
  return (
    <div className={styles.form}>
      <SelectField
        label="Organization"
        placeholder="Choose an organization"
        value={orgId}
        onChange={(event) => setOrgId(event.target.value)}
      >
        {organizations.map((organization) => (
          <option key={organization.orgID} value={organization.orgID}>
            {organization.orgName}
          </option>
        ))}
      </SelectField>
      {orgId !== '' && <AlarmSettingsForm key={orgId} orgId={orgId} />}
    </div>
  );
}

function AlarmSettingsForm({ orgId }: { orgId: string }) {
  const queryClient = useQueryClient();
  const current = useQuery(settingsQueries.alarms(orgId));
  const save = useMutation(settingsMutations.alarms(queryClient));
  const [draft, setDraft] = useState<{ grace: string; unplaced: boolean } | null>(null);
  const [warning, setWarning] = useState<string | null>(null);
  if (current.isPending) return <Loader ariaLabel="Loading alarm settings" />;
  if (current.isError) return <Alert variation="error">{SETTINGS_SOMETHING_WRONG_TEXT}</Alert>;
  const stored: OrganizationAlarmSettings = current.data;
  const grace = draft?.grace ?? String(stored.offlineGraceMinutes);
  const unplaced = draft?.unplaced ?? stored.alarmUnplacedDevices;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const minutes = Number(grace);
    if (
      !Number.isInteger(minutes) ||
      minutes < OFFLINE_GRACE_MINUTES_RANGE.min ||
      minutes > OFFLINE_GRACE_MINUTES_RANGE.max
    )
      return setWarning('The grace period is a whole number of minutes from 0 to 1440.');
    setWarning(null);
    save.mutate(
      { orgID: orgId, offlineGraceMinutes: minutes, alarmUnplacedDevices: unplaced },
      {
        onSuccess: () => {
          setDraft(null);
          showToast(ALARM_SETTINGS_SAVED_TEXT, 'success');
        },
        onError: (error) =>
          setWarning(error instanceof ApiError ? error.message : SETTINGS_SOMETHING_WRONG_TEXT),
      },
    );
  };

  return (
    <form className={styles.form} onSubmit={onSubmit} aria-label="Offline alarms">
      <TextField
        label="Offline grace period (minutes)"
        descriptiveText={`A device must stay offline this long before its alarm and mail go out; going offline and back within it counts as one episode. Default ${DEFAULT_ALARM_SETTINGS.offlineGraceMinutes}.`}
        type="number"
        inputMode="numeric"
        min={OFFLINE_GRACE_MINUTES_RANGE.min}
        max={OFFLINE_GRACE_MINUTES_RANGE.max}
        step={1}
        value={grace}
        onChange={(event) => setDraft({ grace: event.target.value, unplaced })}
      />
      <CheckboxField
        name="alarmUnplacedDevices"
        label="Also raise offline alarms for devices on no floor (spares, not yet placed)"
        checked={unplaced}
        onChange={(event) => setDraft({ grace, unplaced: event.target.checked })}
      />
      {warning && <Alert variation="warning">{warning}</Alert>}
      <Text className={styles.muted}>
        Comfort alarms (a reading out of its comfort zone for {COMFORT_ALARM_AFTER_MINUTES} minutes) are
        raised only while people are on the device&apos;s floor, as its motion sensors tell (a floor without
        any counts as in use), and never for devices on no floor. Alarm mail goes to the organization&apos;s
        admins once per episode; several due at once come as one digest.
      </Text>
      <Button type="submit" variation="primary" isLoading={save.isPending} isDisabled={draft === null}>
        Save
      </Button>
    </form>
  );
}
