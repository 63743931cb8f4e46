import { roleIn } from '@argentum/contracts';
import { useSessionUser } from '../../../../shared/session/sessionStore';
import { useFloorView } from '../../state/FloorViewProvider';
import FloorView, { type FloorViewProps } from '../FloorView';
import { DeviceConfigDrawer } from './DeviceConfigDrawer';
import { FloorEditDrawer } from './FloorEditDrawer';
import { GroupingPanel } from './GroupingPanel';
import { useCompareNavigation } from './useCompareNavigation';

/** Grouping's Save in the mode bar: the selection (device ids, in the order picked) as the floor's devices. */
function GroupingActions() {
  const { state, devices, exit } = useFloorView();
  const { mode, selection } = state.mode;
  if (mode !== 'grouping' && mode !== 'ungrouping') return null;
  const byId = new Map(devices.map((d) => [d.devID, d]));
  return (
    <GroupingPanel kind={mode} selection={selection.flatMap((id) => byId.get(id) ?? [])} onDone={exit} />
  );
}

/**
 * The floor view with this feature's editing wired into its slots: edit mode's drawer, grouping's
 * Save, the device configuration drawer and Compare IEQ's hand-off to the sensor page.
 */
export default function EditableFloorView(props: FloorViewProps) {
  const user = useSessionUser();
  const onCompare = useCompareNavigation();
  const role = props.floor ? roleIn(user.orgRoles, props.floor.orgId) : undefined;
  return (
    <FloorView
      onCompare={onCompare}
      renderDrawer={() => <FloorEditDrawer />}
      renderModeActions={() => <GroupingActions />}
      renderDeviceDetails={(device, close) => (
        <DeviceConfigDrawer device={device} role={role} onClose={close} />
      )}
      {...props}
    />
  );
}
