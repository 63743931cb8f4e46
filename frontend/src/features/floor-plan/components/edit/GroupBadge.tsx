import styles from './edit.module.css';

/** The group a device belongs to, on its marker on the plan. */
export function GroupBadge({ groupNumber }: { groupNumber: number }) {
  return (
    <span className={styles.groupBadge} title={`Group ${groupNumber}`}>
      G{groupNumber}
    </span>
  );
}
