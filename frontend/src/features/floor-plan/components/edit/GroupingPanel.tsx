import { Button } from '@aws-amplify/ui-react';
import type { DeviceView } from '@argentum/contracts';
import { showToast } from '../../../../shared/ui/toastStore';
import { useGroupingCalls } from '../../api/editing';
import { deviceLabel } from './deviceLabels';
import styles from './edit.module.css';
import { canSaveSelection, type GroupingKind, selectionSaveProblem } from './rules';

interface GroupingPanelProps {
  kind: GroupingKind;
  /** The devices picked on the plan (the floor view's mode state), in the order picked. */
  selection: readonly DeviceView[];
  /** Leave the mode after a save (the floor view's mode bar has Cancel). */
  onDone: () => void;
}

/**
 * Grouping and ungrouping's Save (issue 9 item 8), in the floor view's mode bar: what is selected,
 * and Save, disabled below 2 devices to group or with none to ungroup. The floor view's mode state
 * picks the devices and shows the documented warnings of refused picks.
 */
export function GroupingPanel({ kind, selection, onDone }: GroupingPanelProps) {
  const calls = useGroupingCalls();
  const title = kind === 'grouping' ? 'Group Devices' : 'Ungroup Devices';

  return (
    <span className={styles.groupingActions} role="toolbar" aria-label={title}>
      {selection.length > 0 && (
        <span className={styles.selectionNames} title={selection.map(deviceLabel).join(', ')}>
          {selection.map(deviceLabel).join(', ')}
        </span>
      )}
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
  );
}
