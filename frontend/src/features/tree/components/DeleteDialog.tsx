import { Button, Loader } from '@aws-amplify/ui-react';
import { useEffect, useId, useRef } from 'react';
import { DELETE_NODE_TEXT, deleteNodeTitle } from '@argentum/contracts';
import type { TreeNodeRef } from '../api/types';
import styles from './OrganizationTree.module.css';

interface DeleteDialogProps {
  node: TreeNodeRef | null;
  deleting: boolean;
  onCancel: () => void;
  onConfirm: (node: TreeNodeRef) => void;
}

/** The confirmation of a delete, on the native <dialog> (focus trap, Escape, top layer). */
export function DeleteDialog({ node, deleting, onCancel, onConfirm }: DeleteDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const textId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (node && !dialog.open) dialog.showModal();
    if (!node && dialog.open) dialog.close();
  }, [node]);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={titleId}
      aria-describedby={textId}
      onCancel={(event) => {
        event.preventDefault();
        if (!deleting) onCancel();
      }}
    >
      {node && (
        <>
          <h2 id={titleId} className={styles.dialogTitle}>
            {deleteNodeTitle(node.name)}
          </h2>
          <p id={textId} className={styles.dialogText}>
            {DELETE_NODE_TEXT}
          </p>
          <div className={styles.dialogActions}>
            <Button size="small" variation="link" onClick={onCancel} isDisabled={deleting}>
              Cancel
            </Button>
            <Button
              size="small"
              variation="destructive"
              onClick={() => onConfirm(node)}
              isDisabled={deleting}
              autoFocus
            >
              {deleting && <Loader size="small" marginInlineEnd="0.375rem" ariaLabel="Deleting" />}
              Delete
            </Button>
          </div>
        </>
      )}
    </dialog>
  );
}
