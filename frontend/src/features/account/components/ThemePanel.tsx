import { Alert } from '@aws-amplify/ui-react';
import { useId } from 'react';
import { THEME_LABELS, THEME_PREFERENCES, SOMETHING_WENT_WRONG_TEXT } from '@argentum/contracts';
import { useSessionUser } from '../../../shared/session/sessionStore';
import { useTheme } from '../../../shared/theme/theme';
import { useSetThemeMutation } from '../api/accountApi';
import styles from './ThemePanel.module.css';

/**
 * The dark-mode panel: Light, Dark or Follow the system, as one radio group (arrow keys move and
 * choose, Tab leaves). A choice applies at once and is saved with the user, for all their devices.
 */
export function ThemePanel() {
  const user = useSessionUser();
  const { preference, mode } = useTheme();
  const save = useSetThemeMutation();
  const name = useId();
  const hintId = useId();
  const legendId = useId();

  return (
    <div className={styles.panel}>
      <fieldset
        className={styles.group}
        role="radiogroup"
        aria-labelledby={legendId}
        aria-describedby={hintId}
      >
        <legend id={legendId} className={styles.legend}>
          Theme
        </legend>
        <div className={styles.segments}>
          {THEME_PREFERENCES.map((value) => (
            <label key={value} className={styles.segment}>
              <input
                type="radio"
                className={styles.input}
                name={name}
                value={value}
                checked={preference === value}
                onChange={() => save.choose(user.id, value)}
              />
              <span className={styles.label}>{THEME_LABELS[value]}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <p id={hintId} className={styles.hint}>
        {preference === 'system'
          ? `Follows this device's setting (now ${mode}).`
          : 'Saved with your account: it applies on every device you sign in on.'}
      </p>
      {save.isError && (
        <Alert variation="error" role="alert">
          {SOMETHING_WENT_WRONG_TEXT}
        </Alert>
      )}
    </div>
  );
}
