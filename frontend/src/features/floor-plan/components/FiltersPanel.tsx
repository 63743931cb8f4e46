import { CheckboxField, SliderField } from '@aws-amplify/ui-react';
import { ICON_SIZE_STEP, iconSizeRange } from '@argentum/contracts';
import { CloseIcon } from '../../../shared/ui/icons';
import { typeName } from '../model/deviceKinds';
import styles from './FiltersPanel.module.css';
import shared from './floorShared.module.css';

interface FiltersPanelProps {
  types: readonly number[];
  hiddenTypes: readonly number[];
  sizes: Record<string, number>;
  onVisible(devType: number, visible: boolean): void;
  onSize(devType: number, size: number): void;
  onClose(): void;
}

/** Filters: per device type on the floor, a visibility checkbox and an icon size (1-2, lights 0.5-2). */
export function FiltersPanel({ types, hiddenTypes, sizes, onVisible, onSize, onClose }: FiltersPanelProps) {
  return (
    // Escape closes a dialog (WAI-ARIA dialog pattern); jsx-a11y allows it on <dialog> but not role="dialog".
    // eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions
    <div
      className={styles.filters}
      role="dialog"
      aria-label="Filters"
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <div className={styles.panelHeader}>
        <h2 className={shared.heading}>Filters</h2>
        <button type="button" className={shared.closeButton} aria-label="Close filters" onClick={onClose}>
          <CloseIcon />
        </button>
      </div>
      {types.length === 0 && <p className={shared.muted}>No devices on this floor.</p>}
      {types.map((type) => {
        const range = iconSizeRange(type);
        return (
          <div key={type} className={styles.filterRow}>
            <CheckboxField
              name={`visible-${type}`}
              label={typeName(type)}
              checked={!hiddenTypes.includes(type)}
              onChange={(event) => onVisible(type, event.target.checked)}
            />
            <SliderField
              label={`${typeName(type)} icon size`}
              labelHidden
              min={range.min}
              max={range.max}
              step={ICON_SIZE_STEP}
              value={sizes[String(type)] ?? 1}
              onChange={(value) => onSize(type, value)}
              size="small"
              outerEndComponent={
                <span className={styles.sizeValue}>{(sizes[String(type)] ?? 1).toFixed(1)}x</span>
              }
            />
          </div>
        );
      })}
    </div>
  );
}
