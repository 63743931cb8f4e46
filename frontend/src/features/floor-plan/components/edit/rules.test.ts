import {
  CANNOT_GROUP_TYPE_TEXT,
  COMPARE_ITSELF_TEXT,
  DEVICE_NAME_AND_PORT_REQUIRED_TEXT,
  DEVICE_NAME_EMPTY_TEXT,
  DEVICE_NAME_REQUIRED_TEXT,
  type DeviceView,
  GROUP_NAME_UNIQUE_TEXT,
  NOT_IN_GROUP_TEXT,
  SAME_TYPE_TEXT,
  SELECT_DATA_POINTS_TEXT,
  SELECT_TO_GROUP_TEXT,
  SELECT_TO_UNGROUP_TEXT,
  SINGLE_DEVICE_GROUP_TEXT,
  SPECIAL_CHARACTERS_TEXT,
  UNGROUP_BEFORE_REMOVE_TEXT,
  UNGROUP_FIRST_TEXT,
} from '@argentum/contracts';
import { describe, expect, it } from 'vitest';
import {
  canSaveSelection,
  compareProblem,
  configSaveProblem,
  deviceNameProblem,
  dropFormProblem,
  dropNeedsForm,
  dropRefusal,
  GATEWAY_ROLE_TEXT,
  removeRefusal,
  selectionSaveProblem,
  toggleGroupingSelection,
  toggleUngroupingSelection,
} from './rules';

const device = (devID: string, devType: number, overrides: Partial<DeviceView> = {}): DeviceView => ({
  devID,
  devName: `Dev${devID}`,
  devType,
  orgID: 'org',
  onFloor: true,
  dataPoints: [{ dp: 'temp', dn: 'Temperature' }],
  properties: {},
  online: true,
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
  ...overrides,
});

describe('name rule', () => {
  it('refuses empty names with the caller text, special characters and spaces', () => {
    expect(deviceNameProblem('  ')).toBe(DEVICE_NAME_REQUIRED_TEXT);
    expect(deviceNameProblem('', DEVICE_NAME_EMPTY_TEXT)).toBe(DEVICE_NAME_EMPTY_TEXT);
    expect(deviceNameProblem('Light 1')).toBe(SPECIAL_CHARACTERS_TEXT);
    expect(deviceNameProblem('Light#1')).toBe(SPECIAL_CHARACTERS_TEXT);
    expect(deviceNameProblem('Lights_01')).toBeNull();
  });
});

describe('drop validation', () => {
  it('asks for what the device lacks', () => {
    expect(dropNeedsForm(device('a', 4))).toBe(false);
    expect(dropNeedsForm(device('a', 4, { devName: '' }))).toBe(true);
    expect(dropNeedsForm(device('a', 1, { port: undefined }))).toBe(true);
    expect(dropNeedsForm(device('a', 1, { port: 0 }))).toBe(false);
    expect(dropNeedsForm(device('a', 5, { dataPoints: [] }))).toBe(true);
    expect(dropNeedsForm(device('a', 3, { port: '' }))).toBe(true);
  });

  it('answers the documented texts', () => {
    expect(dropFormProblem(device('a', 4, { devName: '' }), {})).toBe(DEVICE_NAME_REQUIRED_TEXT);
    expect(dropFormProblem(device('a', 4, { devName: '' }), { devName: 'Hall Motion' })).toBe(
      SPECIAL_CHARACTERS_TEXT,
    );
    expect(dropFormProblem(device('a', 1, { devName: '' }), { devName: 'Hall' })).toBe(
      DEVICE_NAME_AND_PORT_REQUIRED_TEXT,
    );
    expect(dropFormProblem(device('a', 1, { devName: '' }), { port: 1 })).toBe(
      DEVICE_NAME_AND_PORT_REQUIRED_TEXT,
    );
    expect(dropFormProblem(device('a', 1, { devName: '' }), { devName: 'Hall', port: 1 })).toBeNull();
    expect(dropFormProblem(device('a', 5, { dataPoints: [] }), {})).toBe(SELECT_DATA_POINTS_TEXT);
    expect(dropFormProblem(device('a', 5, { dataPoints: [] }), { dataPoints: [{ dp: 'co2' }] })).toBeNull();
  });

  it('lets only role 3 place gateways', () => {
    expect(dropRefusal(device('g', 0), 2)).toBe(GATEWAY_ROLE_TEXT);
    expect(dropRefusal(device('g', 0), undefined)).toBe(GATEWAY_ROLE_TEXT);
    expect(dropRefusal(device('g', 0), 3)).toBeNull();
    expect(dropRefusal(device('l', 1), 2)).toBeNull();
  });

  it('refuses to remove a grouped device', () => {
    expect(removeRefusal(device('l', 1, { groupNumber: 1234 }))).toBe(UNGROUP_BEFORE_REMOVE_TEXT);
    expect(removeRefusal(device('l', 1))).toBeNull();
  });
});

describe('configuration Save', () => {
  it('needs a name, and for motion and IEQ sensors a data point', () => {
    expect(configSaveProblem(device('m', 4), '', 1)).toBe(DEVICE_NAME_EMPTY_TEXT);
    expect(configSaveProblem(device('p', 1), '', 1)).toBe(DEVICE_NAME_REQUIRED_TEXT);
    expect(configSaveProblem(device('m', 4), 'Motion1', 0)).toBe(SELECT_DATA_POINTS_TEXT);
    expect(configSaveProblem(device('i', 5), 'IEQ1', 0)).toBe(SELECT_DATA_POINTS_TEXT);
    expect(configSaveProblem(device('p', 1), 'Light1', 0)).toBeNull();
    expect(configSaveProblem(device('i', 5), 'IEQ 1', 2)).toBe(SPECIAL_CHARACTERS_TEXT);
  });
});

describe('grouping rules', () => {
  const lightA = device('A', 1);
  const lightB = device('B', 1);
  const motion = device('M', 4);

  it('selects lights and motion sensors of one type that are in no group', () => {
    let step = toggleGroupingSelection([], lightA);
    expect(step).toEqual({ selection: [lightA], warning: null });
    step = toggleGroupingSelection(step.selection, lightB);
    expect(step.selection.map((d) => d.devID)).toEqual(['A', 'B']);
    expect(toggleGroupingSelection(step.selection, motion)).toEqual({
      selection: [lightA, lightB],
      warning: SAME_TYPE_TEXT,
    });
    expect(toggleGroupingSelection([], device('I', 5)).warning).toBe(CANNOT_GROUP_TYPE_TEXT);
    expect(toggleGroupingSelection([], device('G', 1, { groupNumber: 4321 })).warning).toBe(
      UNGROUP_FIRST_TEXT,
    );
    // A second click unselects.
    expect(toggleGroupingSelection(step.selection, lightA).selection).toEqual([lightB]);
  });

  it('selects only grouped devices to ungroup', () => {
    expect(toggleUngroupingSelection([], lightA)).toEqual({ selection: [], warning: NOT_IN_GROUP_TEXT });
    const grouped = device('G', 1, { groupNumber: 4321 });
    expect(toggleUngroupingSelection([], grouped)).toEqual({ selection: [grouped], warning: null });
  });

  it('enables Save with 2 devices to group or 1 to ungroup, and says why not', () => {
    expect(canSaveSelection('grouping', [lightA])).toBe(false);
    expect(canSaveSelection('grouping', [lightA, lightB])).toBe(true);
    expect(canSaveSelection('ungrouping', [])).toBe(false);
    expect(canSaveSelection('ungrouping', [lightA])).toBe(true);
    expect(selectionSaveProblem('grouping', [])).toBe(SELECT_TO_GROUP_TEXT);
    expect(selectionSaveProblem('grouping', [lightA])).toBe(SINGLE_DEVICE_GROUP_TEXT);
    expect(selectionSaveProblem('grouping', [lightA, device('C', 1, { devName: 'devA' })])).toBe(
      GROUP_NAME_UNIQUE_TEXT,
    );
    expect(selectionSaveProblem('grouping', [lightA, lightB])).toBeNull();
    expect(selectionSaveProblem('ungrouping', [])).toBe(SELECT_TO_UNGROUP_TEXT);
  });

  it('compares two different IEQ sensors only', () => {
    const ieq1 = device('I1', 5);
    expect(compareProblem(ieq1, ieq1)).toBe(COMPARE_ITSELF_TEXT);
    expect(compareProblem(ieq1, lightA)).toBe(SAME_TYPE_TEXT);
    expect(compareProblem(ieq1, device('I2', 5))).toBeNull();
  });
});
