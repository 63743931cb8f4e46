import { PASSWORD_HINT_TEXT } from '@argentum/contracts';
import { passwordStrength } from './passwordStrength';
import styles from './PasswordStrengthMeter.module.css';

const labels = { weak: 'Weak', medium: 'Medium', strong: 'Strong' } as const;
const levels = { weak: 1, medium: 2, strong: 3 } as const;

/** Strength bar and the password hint, under a new-password field. */
export function PasswordStrengthMeter({ password, id }: { password: string; id: string }) {
  const strength = passwordStrength(password);
  return (
    <div id={id} className={styles.meter} data-strength={strength}>
      <div
        className={styles.track}
        role="meter"
        aria-label="Password strength"
        aria-valuemin={1}
        aria-valuemax={3}
        aria-valuenow={levels[strength]}
        aria-valuetext={labels[strength]}
      >
        {[1, 2, 3].map((level) => (
          <span key={level} className={styles.segment} data-on={level <= levels[strength] || undefined} />
        ))}
      </div>
      <p className={styles.label}>
        Password strength: <strong>{labels[strength]}</strong>
      </p>
      <p className={styles.hint}>{PASSWORD_HINT_TEXT}</p>
    </div>
  );
}
