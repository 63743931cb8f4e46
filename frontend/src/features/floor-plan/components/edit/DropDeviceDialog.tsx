import { Button } from '@aws-amplify/ui-react';
import type { DeviceView } from '@argentum/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Dialog } from '../../../../shared/ui/Dialog';
import type { DropDetails } from './editSession';
import { deviceLabel, IEQ_DATA_POINTS, typeName } from './deviceLabels';
import styles from './edit.module.css';
import { DeviceType } from '@argentum/contracts';
import { dropFormProblem, needsPort, PORT_CHOICES } from './rules';

interface DropDeviceDialogProps {
  device: DeviceView;
  onPlace: (details: DropDetails) => void;
  onCancel: () => void;
}

/**
 * The small form shown when a dropped device lacks what the floor needs: a name, a power node's
 * port, an IEQ sensor's data points. Validated with the specification's texts.
 */
export function DropDeviceDialog({ device, onPlace, onCancel }: DropDeviceDialogProps) {
  const [devName, setDevName] = useState(device.devName);
  const [port, setPort] = useState<number | undefined>(
    typeof device.port === 'number' ? device.port : undefined,
  );
  const offered = device.dataPoints.length > 0 ? device.dataPoints : IEQ_DATA_POINTS;
  const [chosen, setChosen] = useState<string[]>(device.dataPoints.map((p) => p.dp));
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const formId = useId();
  const isIeq = device.devType === DeviceType.ieq;

  const details = (): DropDetails => ({
    devName: devName.trim(),
    ...(needsPort(device) && port !== undefined ? { port } : {}),
    ...(isIeq ? { dataPoints: offered.filter((p) => chosen.includes(p.dp)) } : {}),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = dropFormProblem(device, details());
    setError(problem);
    if (!problem) onPlace(details());
  };

  return (
    <Dialog
      open
      title={`Place ${deviceLabel(device)}`}
      onClose={onCancel}
      footer={
        <>
          <Button size="small" onClick={onCancel}>
            Cancel
          </Button>
          <Button size="small" variation="primary" type="submit" form={formId}>
            Place device
          </Button>
        </>
      }
    >
      <form id={formId} className={styles.form} onSubmit={submit} noValidate>
        <p className={styles.muted}>
          {typeName(device.devType)} · {device.devID}
        </p>
        <label className={styles.field}>
          <span>Device name</span>
          <input
            className={styles.input}
            value={devName}
            autoFocus
            maxLength={64}
            aria-invalid={error !== null}
            aria-describedby={error ? errorId : undefined}
            onChange={(event) => {
              setDevName(event.target.value);
              setError(null);
            }}
          />
        </label>
        {needsPort(device) && (
          <label className={styles.field}>
            <span>Port</span>
            <select
              className={styles.input}
              value={port === undefined ? '' : String(port)}
              onChange={(event) => {
                setPort(event.target.value === '' ? undefined : Number(event.target.value));
                setError(null);
              }}
            >
              <option value="">Select</option>
              {PORT_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          </label>
        )}
        {isIeq && (
          <fieldset className={styles.fieldset}>
            <legend>Data points</legend>
            {offered.map((point) => (
              <label key={point.dp} className={styles.check}>
                <input
                  type="checkbox"
                  checked={chosen.includes(point.dp)}
                  onChange={(event) => {
                    setChosen((c) =>
                      event.target.checked ? [...c, point.dp] : c.filter((dp) => dp !== point.dp),
                    );
                    setError(null);
                  }}
                />
                {point.dn ?? point.dp}
              </label>
            ))}
          </fieldset>
        )}
        {error && (
          <p id={errorId} className={styles.error} role="alert">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
