import { type DeviceView, roleIn } from '@argentum/events/contracts';
import { useSessionUser } from '../../../../shared/session/sessionStore';
import FloorView, { type FloorModeContext, type FloorViewProps } from '../FloorView';
import { DeviceConfigDrawer } from './DeviceConfigDrawer';
import { FloorEditDrawer } from './FloorEditDrawer';
import { GroupingPanel } from './GroupingPanel';
import { useCompareNavigation } from './useCompareNavigation';

/** The grouping selection (device ids, in the order picked) as the devices of the floor. */
function selectedDevices(context: FloorModeContext): DeviceView[] {
  const byId = new Map(context.devices.map((d) => [d.devID, d]));
  return context.state.selection.flatMap((id) => byId.get(id) ?? []);
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
      renderDrawer={(context) => <FloorEditDrawer host={context} />}
      renderModeActions={(context) =>
        context.state.mode === 'grouping' || context.state.mode === 'ungrouping' ? (
          <GroupingPanel
            kind={context.state.mode}
            selection={selectedDevices(context)}
            onDone={context.exit}
          />
        ) : null
      }
      renderDeviceDetails={(device, close) => (
        <DeviceConfigDrawer device={device} role={role} onClose={close} />
      )}
      {...props}
    />
  );
}
