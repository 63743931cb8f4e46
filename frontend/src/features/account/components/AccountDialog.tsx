import { Button, Heading } from '@aws-amplify/ui-react';
import { useEffect, useId, useRef, type ReactNode } from 'react';
import styles from './AccountDialog.module.css';

interface AccountDialogProps {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ReactNode;
}

/** A modal dialog (native <dialog>: focus trap, Escape and inert background come with it). */
export function AccountDialog({ title, open, onClose, children }: AccountDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const headingId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={styles.dialog}
      aria-labelledby={headingId}
      onClose={onClose}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      <div className={styles.header}>
        <Heading level={2} id={headingId} className={styles.title}>
          {title}
        </Heading>
        <Button variation="link" size="small" className={styles.close} aria-label="Close" onClick={onClose}>
          <span aria-hidden="true" className={styles.closeGlyph}>
            ×
          </span>
        </Button>
      </div>
      {open && children}
    </dialog>
  );
}
