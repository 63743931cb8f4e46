import { useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { validateNodeName } from '../api/treeEditing';
import type { TreeNodeType } from '../api/types';
import { CheckIcon, CloseIcon } from '../../../shared/ui/icons';
import styles from './OrganizationTree.module.css';

interface NameInputProps {
  type: TreeNodeType;
  placeholder: string;
  /** Accessible name of the field, e.g. "New building name". */
  label: string;
  initialValue?: string;
  /** The text refusing an empty name, when not the tree's own for `type`. */
  emptyText?: string;
  depth: 0 | 1 | 2;
  /** Resolves true when saved; the input then closes. */
  onSubmit: (value: string) => Promise<boolean>;
  onCancel: () => void;
}

/** An inline name field of the tree: Enter saves, Escape cancels; empty names get the spec's message. */
export function NameInput({
  type,
  placeholder,
  label,
  initialValue = '',
  emptyText,
  depth,
  onSubmit,
  onCancel,
}: NameInputProps) {
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const errorId = useId();

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    if (saving) return;
    const empty = validateNodeName(type, value);
    const problem = empty && (emptyText ?? empty);
    setError(problem);
    if (problem) return;
    if (value.trim() === initialValue.trim() && initialValue !== '') {
      onCancel();
      return;
    }
    setSaving(true);
    const saved = await onSubmit(value);
    setSaving(false);
    if (saved) onCancel();
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    }
  }

  return (
    <form className={styles.nameForm} data-depth={depth} onSubmit={(event) => void submit(event)} noValidate>
      <div className={styles.nameRow}>
        <input
          className={styles.nameInput}
          value={value}
          placeholder={placeholder}
          aria-label={label}
          aria-invalid={error !== null}
          aria-describedby={error ? errorId : undefined}
          maxLength={100}
          disabled={saving}
          // The field appears because the user asked for it: focus it at once.
          autoFocus
          onChange={(event) => {
            setValue(event.target.value);
            if (error) setError(null);
          }}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className={styles.iconButton} aria-label="Save" disabled={saving}>
          <CheckIcon size={15} />
        </button>
        <button type="button" className={styles.iconButton} aria-label="Cancel" onClick={onCancel}>
          <CloseIcon size={15} />
        </button>
      </div>
      {error && (
        <p id={errorId} className={styles.fieldError} role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
