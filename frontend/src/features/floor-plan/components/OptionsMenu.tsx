import { Menu, MenuButton, MenuItem } from '@aws-amplify/ui-react';
import type { FloorMode } from '../model/modeReducer';
import styles from './OptionsMenu.module.css';

export interface OptionsMenuProps {
  mode: FloorMode;
  hasIeq: boolean;
  /** Motion sensors or lights are on the floor. */
  hasGroupable: boolean;
  /** The caller's role in the floor's organization is above 1. */
  canAdminister: boolean;
  showLinks: boolean;
  onMode(mode: FloorMode): void;
  onFilters(): void;
  onUpload(): void;
  onToggleLinks(): void;
}

/** OPTIONS: the floor's modes and tools (specification section 2), each shown only when it applies. */
export function OptionsMenu({
  mode,
  hasIeq,
  hasGroupable,
  canAdminister,
  showLinks,
  onMode,
  onFilters,
  onUpload,
  onToggleLinks,
}: OptionsMenuProps) {
  const on = (which: FloorMode) => (mode === which ? ' (on)' : '');
  return (
    <Menu
      menuAlign="end"
      size="small"
      trigger={
        <MenuButton size="small" className={styles.optionsButton}>
          OPTIONS
        </MenuButton>
      }
    >
      {hasIeq && (
        <MenuItem onClick={() => onMode('compareIEQ')}>Compare IEQ Devices{on('compareIEQ')}</MenuItem>
      )}
      <MenuItem onClick={onFilters}>Filters</MenuItem>
      {/* Each item a direct child, not in a fragment: the menu gives its size to its direct children. */}
      {canAdminister && hasGroupable && (
        <MenuItem onClick={() => onMode('grouping')}>Group Devices{on('grouping')}</MenuItem>
      )}
      {canAdminister && hasGroupable && (
        <MenuItem onClick={() => onMode('ungrouping')}>Ungroup Devices{on('ungrouping')}</MenuItem>
      )}
      {canAdminister && <MenuItem onClick={onUpload}>Upload Floor Plan</MenuItem>}
      <MenuItem onClick={onToggleLinks}>Sensor-Node(link){showLinks ? ' (on)' : ''}</MenuItem>
      {canAdminister && <MenuItem onClick={() => onMode('edit')}>Edit Floor Plan{on('edit')}</MenuItem>}
    </Menu>
  );
}
