import { CheckboxField } from '@aws-amplify/ui-react';
import type { AdminOrganization } from '../api/types';
import styles from './Settings.module.css';

interface OrganizationChecklistProps {
  legend: string;
  organizations: readonly AdminOrganization[];
  selected: readonly string[];
  onChange: (selected: string[]) => void;
  disabled?: boolean;
}

/** Multi-select of the administrator's own organizations, as a group of checkboxes. */
export function OrganizationChecklist({
  legend,
  organizations,
  selected,
  onChange,
  disabled,
}: OrganizationChecklistProps) {
  return (
    <fieldset className={styles.checklist} disabled={disabled}>
      <legend className={styles.fieldLabel}>{legend}</legend>
      {organizations.length === 0 && <p className={styles.muted}>You do not administer any organization.</p>}
      <div className={styles.checklistItems}>
        {organizations.map((organization) => (
          <CheckboxField
            key={organization.orgID}
            name="organizations"
            value={organization.orgID}
            label={organization.orgName}
            checked={selected.includes(organization.orgID)}
            onChange={(event) =>
              onChange(
                event.target.checked
                  ? [...selected, organization.orgID]
                  : selected.filter((id) => id !== organization.orgID),
              )
            }
          />
        ))}
      </div>
    </fieldset>
  );
}
