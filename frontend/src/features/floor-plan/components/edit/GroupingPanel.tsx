import { Button } from '@aws-amplify/ui-react';
import type { DeviceView } from '@argentum/events/contracts';
import { showToast } from '../../../../shared/ui/toastStore';
import { useGroupingCalls } from '../../api/editing';
import { deviceLabel } from './deviceLabels';
import styles from './edit.module.css';
import { canSaveSelection, type GroupingKind, selectionSaveProblem } from './rules';

interface GroupingPanelProps {
  kind: GroupingKind;
  /** The devices picked on the plan (the floor view's mode state), in the order picked. */
  selection: readonly DeviceView[];
  /** The documented warning of the last refused pick, if any. */
  warning?: string | null;
  /** Leave the mode (Cancel, or after a save). */
  onDone: () => void;
}

const INSTRUCTIONS: Record<GroupingKind, string> = {
  grouping: 'Select two or more lights or motion sensors of the same type on the plan, then Save.',
  ungrouping: 'Select the grouped devices to take out of their group on the plan, then Save.',
};

/**
 * Grouping and ungrouping (issue 9 item 8) over the floor view's mode state: what is selected, the
 * documented warnings, and Save (disabled below 2 devices to group, or with none to ungroup).
 */
export function GroupingPanel({ kind, selection, warning, onDone }: GroupingPanelProps) {
  const calls = useGroupingCalls();
  const title = kind === 'grouping' ? 'Group Devices' : 'Ungroup Devices';

  return (
    <div className={styles.toolbar} role="toolbar" aria-label={title}>
      <span className={styles.toolbarTitle}>{title}</span>
      <span className={styles.toolbarSummary}>
        {selection.length === 0
          ? INSTRUCTIONS[kind]
          : `${selection.length} selected: ${selection.map(deviceLabel).join(', ')}`}
      </span>
      {warning && (
        <span className={styles.warning} role="alert">
          {warning}
        </span>
      )}
      <span className={styles.toolbarActions}>
        <Button size="small" isDisabled={calls.isPending} onClick={onDone}>
          Cancel
        </Button>
        <Button
          size="small"
          variation="primary"
          isDisabled={!canSaveSelection(kind, selection)}
          isLoading={calls.isPending}
          loadingText="Saving…"
          onClick={() => {
            const problem = selectionSaveProblem(kind, selection);
            if (problem) {
              showToast(problem, 'warning');
              return;
            }
            calls.mutate({ kind, devIDs: selection.map((d) => d.devID) }, { onSuccess: onDone });
          }}
        >
          Save
        </Button>
      </span>
    </div>
  );
}
