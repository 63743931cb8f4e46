import { Button } from '@aws-amplify/ui-react';
import { DeviceType, type DeviceView, iconChoicesOf, MIN_ROLE, type RoleNumber } from '@argentum/contracts';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { sensorDetailPath } from '../../../../shared/routes/sensorDetail';
import { CheckIcon, CloseIcon, PencilIcon } from '../../../../shared/ui/icons';
import { useDeviceConfiguration } from '../../api/editing';
import { iconOf } from '../../model/deviceKinds';
import { useFloorView } from '../../state/FloorViewProvider';
import { DeviceControls } from '../panels/DeviceControls';
import { deviceLabel } from './deviceLabels';
import { DeviceFacts } from './DeviceFacts';
import styles from './edit.module.css';
import { configSaveProblem, deviceNameProblem } from './rules';

const DATA_POINT_NAME_EMPTY_TEXT = 'Data point name can not be empty.';
const READ_ONLY_CONFIG_TEXT = 'You have read-only access: ask an administrator to change this device.';

/** Devices that can take a thermistor child node: IO nodes (type 2) without one. */
const canAddThermistor = (device: DeviceView) =>
  device.devType === DeviceType.thermistor && device.childNode === undefined;

interface DeviceConfigDrawerProps {
  device: DeviceView;
  /** The user's role in the device's organization; names are editable above 0. */
  role: RoleNumber | undefined;
  onClose: () => void;
}

/** How old a gateway's status from another floor may be when a drawer shows it. */
const GATEWAY_STATUS_MAX_AGE_MS = 60_000;

/**
 * The device configuration bottom drawer (issue 9 item 7): the device name and each data point's
 * name with edit / save / cancel (roles above 0), and a thermistor child node for IO nodes.
 */
export function DeviceConfigDrawer({ device, role, onClose }: DeviceConfigDrawerProps) {
  const canEdit = (role ?? 0) >= MIN_ROLE.control;
  const config = useDeviceConfiguration();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const { devicesById, gatewaysElsewhere, refreshDevices } = useFloorView();
  const gatewayHere = device.gatewayID ? devicesById.get(device.gatewayID) : undefined;
  const gatewayElsewhere = device.gatewayID ? gatewaysElsewhere.get(device.gatewayID) : undefined;
  const gateway = gatewayHere
    ? gatewayHere
    : gatewayElsewhere && { ...gatewayElsewhere, elsewhere: { floorName: gatewayElsewhere.floorName } };
  // A gateway on another floor is not on this floor's live channel: its status is the floor answer's,
  // asked again when the drawer opens on a device it carries and that answer is over a minute old.
  const reportsElsewhere = device.gatewayID !== undefined && gatewayHere === undefined;
  useEffect(() => {
    if (reportsElsewhere) refreshDevices(GATEWAY_STATUS_MAX_AGE_MS);
  }, [device.devID, reportsElsewhere, refreshDevices]);

  useEffect(() => headingRef.current?.focus(), [device.devID]);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    // data-covers: the floor's device popups keep clear of this drawer.
    <section className={styles.bottomDrawer} aria-labelledby={headingId} data-covers="bottom">
      <header className={styles.bottomHeader}>
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className={styles.bottomTitle}>
          Device configuration: {deviceLabel(device)}
        </h2>
        {device.dataPoints.length > 0 && (
          // Its history, graphs and export: the sensor detail page.
          <Link className={styles.historyLink} to={sensorDetailPath(device.devID)}>
            Sensor data
          </Link>
        )}
        <button
          type="button"
          className={styles.iconButton}
          aria-label="Close device configuration"
          onClick={onClose}
        >
          <CloseIcon size={18} />
        </button>
      </header>
      <div className={styles.bottomBody}>
        <div className={styles.bottomColumn}>
          <DeviceFacts device={device} gateway={gateway} />
          {!canEdit && <p className={styles.muted}>{READ_ONLY_CONFIG_TEXT}</p>}
          <h3 className={styles.subTitle}>Device name</h3>
          <EditableName
            key={`name-${device.devID}-${device.version}`}
            label="Device name"
            value={device.devName}
            canEdit={canEdit}
            problemOf={(name) => configSaveProblem(device, name, device.dataPoints.length)}
            onSave={async (devName) => {
              await config.rename.mutateAsync({ device, devName });
            }}
          />
          {iconChoicesOf(device.devType).length > 0 && (
            <IconChoice
              key={`icon-${device.devID}-${device.version}`}
              device={device}
              canEdit={canEdit}
              saving={config.setIcon.isPending}
              onChoose={(icon) => config.setIcon.mutate({ device, icon })}
            />
          )}
        </div>
        <div className={styles.bottomColumn}>
          <h3 className={styles.subTitle}>Data points</h3>
          {device.dataPoints.length === 0 ? (
            <p className={styles.muted}>This device reports no data points.</p>
          ) : (
            <ul className={styles.dataPoints}>
              {device.dataPoints.map((point) => (
                <li key={point.dp}>
                  <EditableName
                    key={`${point.dp}-${device.version}`}
                    label={`Name of data point ${point.dp}`}
                    value={point.dn ?? point.dp}
                    canEdit={canEdit}
                    problemOf={(dn) => deviceNameProblem(dn, DATA_POINT_NAME_EMPTY_TEXT)}
                    onSave={async (dn) => {
                      await config.renameDataPoint.mutateAsync({ device, dp: point.dp, dn });
                    }}
                  />
                </li>
              ))}
            </ul>
          )}
          {device.childNode && (
            <p className={styles.muted}>
              Thermistor child node: {device.childNode.devID} (
              {device.childNode.dataPoints.map((p) => p.dn ?? p.dp).join(', ')})
            </p>
          )}
          {canEdit && canAddThermistor(device) && <ThermistorForm device={device} />}
        </div>
        <div className={styles.bottomColumn} aria-label="Device control" role="region">
          <h3 className={styles.subTitle}>Control</h3>
          {/* Keyed by device: a control's pending command belongs to the device it was sent to. */}
          <DeviceControls key={device.devID} device={device} canControl={canEdit} />
        </div>
      </div>
    </section>
  );
}

const ICON_LABELS: Record<string, string> = {
  node: 'Node',
  powernode: 'Power node',
  shades: 'Shades',
  ecobee: 'Ecobee',
};

/** The icon the plan draws for the device: one of its type's choices (stored as properties.conndev). */
function IconChoice({
  device,
  canEdit,
  saving,
  onChoose,
}: {
  device: DeviceView;
  canEdit: boolean;
  saving: boolean;
  onChoose: (icon: string) => void;
}) {
  const choices = iconChoicesOf(device.devType);
  const stored = typeof device.properties.conndev === 'string' ? device.properties.conndev : undefined;
  // Without a stored choice, the one the plan draws now (when it is among the choices).
  const drawn = iconOf(device);
  const current = stored ?? (choices.includes(drawn) ? drawn : '');
  const id = useId();
  return (
    <>
      <h3 className={styles.subTitle}>
        <label htmlFor={id}>Icon</label>
      </h3>
      <select
        id={id}
        className={styles.inputOnItsOwn}
        value={current}
        disabled={!canEdit || saving}
        onChange={(event) => onChoose(event.target.value)}
      >
        {current === '' && <option value="">Default</option>}
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {ICON_LABELS[choice] ?? choice}
          </option>
        ))}
      </select>
    </>
  );
}

interface EditableNameProps {
  label: string;
  value: string;
  canEdit: boolean;
  /** Why Save is disabled (shown under the field), or null. */
  problemOf: (value: string) => string | null;
  /** Rejects when the save failed (the field then stays open with the user's text). */
  onSave: (value: string) => Promise<void>;
}

function EditableName({ label, value, canEdit, problemOf, onSave }: EditableNameProps) {
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(value);
  const [saving, setSaving] = useState(false);
  const errorId = useId();
  const problem = editing ? problemOf(draft) : null;

  if (!editing) {
    return (
      <div className={styles.nameRow}>
        <span className={styles.nameValue}>{value}</span>
        {canEdit && (
          <button
            type="button"
            className={styles.iconButton}
            aria-label={`Edit ${label.toLowerCase()}`}
            title="Edit"
            onClick={() => {
              setDraft(value);
              setEditing(true);
            }}
          >
            <PencilIcon size={15} />
          </button>
        )}
      </div>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem || saving) return;
    if (draft.trim() === value) {
      setEditing(false);
      return;
    }
    setSaving(true);
    try {
      await onSave(draft.trim());
      setEditing(false);
    } catch {
      // The call's toast said why; the field stays open with what was typed.
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className={styles.nameForm} onSubmit={(event) => void submit(event)} noValidate>
      <div className={styles.nameRow}>
        <input
          className={styles.input}
          aria-label={label}
          value={draft}
          maxLength={64}
          autoFocus
          disabled={saving}
          aria-invalid={problem !== null}
          aria-describedby={problem ? errorId : undefined}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              setEditing(false);
            }
          }}
        />
        <button
          type="submit"
          className={styles.iconButton}
          aria-label={`Save ${label.toLowerCase()}`}
          disabled={problem !== null || saving}
        >
          <CheckIcon size={15} />
        </button>
        <button
          type="button"
          className={styles.iconButton}
          aria-label={`Cancel editing ${label.toLowerCase()}`}
          onClick={() => setEditing(false)}
        >
          <CloseIcon size={15} />
        </button>
      </div>
      {problem && (
        <p id={errorId} className={styles.error} role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

function ThermistorForm({ device }: { device: DeviceView }) {
  const { addThermistor } = useDeviceConfiguration();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [pointName, setPointName] = useState('Temperature');
  const [error, setError] = useState<string | null>(null);

  if (!open) {
    return (
      <Button size="small" onClick={() => setOpen(true)}>
        Add thermistor
      </Button>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = deviceNameProblem(name) ?? deviceNameProblem(pointName, DATA_POINT_NAME_EMPTY_TEXT);
    setError(problem);
    if (problem) return;
    addThermistor.mutate(
      {
        devID: device.devID,
        devType: device.devType,
        devName: name.trim(),
        dataPoints: [{ dp: 'temp', dn: pointName.trim(), readonly: true }],
        childNode: { type: 'thermistor' },
      },
      { onSuccess: () => setOpen(false) },
    );
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Add thermistor">
      <h3 className={styles.subTitle}>Add thermistor</h3>
      <label className={styles.field}>
        <span>Thermistor name</span>
        <input
          className={styles.input}
          value={name}
          maxLength={64}
          onChange={(e) => setName(e.target.value)}
        />
      </label>
      <label className={styles.field}>
        <span>Data point name</span>
        <input
          className={styles.input}
          value={pointName}
          maxLength={64}
          onChange={(e) => setPointName(e.target.value)}
        />
      </label>
      {error && (
        <p className={styles.error} role="alert">
          {error}
        </p>
      )}
      <div className={styles.formActions}>
        <Button size="small" onClick={() => setOpen(false)}>
          Cancel
        </Button>
        <Button size="small" variation="primary" type="submit" isLoading={addThermistor.isPending}>
          Add thermistor
        </Button>
      </div>
    </form>
  );
}
