import styles from './edit.module.css';

/** The group a device belongs to, on its marker on the plan. */
export function GroupBadge({ groupNumber }: { groupNumber: number }) {
  return (
    <span className={styles.groupBadge} title={`Group ${groupNumber}`} data-group={groupNumber}>
      G{groupNumber}
    </span>
  );
}
