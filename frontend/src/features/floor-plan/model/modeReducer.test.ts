import {
  CANNOT_GROUP_TYPE_TEXT,
  COMPARE_ITSELF_TEXT,
  NOT_IN_GROUP_TEXT,
  SAME_TYPE_TEXT,
  UNGROUP_FIRST_TEXT,
} from '@argentum/contracts';
import { describe, expect, it } from 'vitest';
import {
  floorModeReducer,
  initialModeState,
  modeMark,
  type FloorModeAction,
  type FloorModeState,
} from './modeReducer';

const run = (...actions: FloorModeAction[]): FloorModeState =>
  actions.reduce(floorModeReducer, initialModeState);

const light = (n: number, groupNumber?: number) => ({ devID: `light-${n}`, devType: 1, groupNumber });
const motion = (n: number) => ({ devID: `motion-${n}`, devType: 4 });
const ieq = (n: number) => ({ devID: `ieq-${n}`, devType: 5 });
const gateway = { devID: 'gw', devType: 0 };

describe('floor modes', () => {
  it('lets one mode be on at a time: entering one ends the others and their selections', () => {
    const grouping = run({ type: 'enter', mode: 'grouping' }, { type: 'pick', device: light(1) });
    expect(grouping.selection).toEqual(['light-1']);
    const compare = floorModeReducer(grouping, { type: 'enter', mode: 'compareIEQ' });
    expect(compare).toEqual({ ...initialModeState, mode: 'compareIEQ' });
    const edit = floorModeReducer(compare, { type: 'enter', mode: 'edit' });
    expect(edit.mode).toBe('edit');
    expect(floorModeReducer(edit, { type: 'exit' })).toEqual(initialModeState);
  });

  it('turns a mode off when it is chosen again', () => {
    expect(run({ type: 'enter', mode: 'ungrouping' }, { type: 'enter', mode: 'ungrouping' }).mode).toBe(
      'normal',
    );
  });

  it('ignores picks in normal and edit mode', () => {
    expect(run({ type: 'pick', device: light(1) })).toEqual(initialModeState);
    expect(run({ type: 'enter', mode: 'edit' }, { type: 'pick', device: light(1) }).selection).toEqual([]);
  });
});

describe('grouping selection', () => {
  it('refuses a device that is already in a group', () => {
    const state = run({ type: 'enter', mode: 'grouping' }, { type: 'pick', device: light(1, 4321) });
    expect(state.selection).toEqual([]);
    expect(state.warning).toBe(UNGROUP_FIRST_TEXT);
  });

  it('picks and unpicks devices of one groupable type', () => {
    const state = run(
      { type: 'enter', mode: 'grouping' },
      { type: 'pick', device: light(1) },
      { type: 'pick', device: light(2) },
      { type: 'pick', device: light(3) },
      { type: 'pick', device: light(2) },
    );
    expect(state.selection).toEqual(['light-1', 'light-3']);
    expect(state.selectionType).toBe(1);
    expect(modeMark(state, 'light-1')).toBe('selected');
    expect(modeMark(state, 'light-2')).toBeUndefined();
  });

  it('refuses types that cannot be grouped and a second type', () => {
    const refusedType = run({ type: 'enter', mode: 'grouping' }, { type: 'pick', device: gateway });
    expect(refusedType.warning).toBe(CANNOT_GROUP_TYPE_TEXT);
    expect(refusedType.selection).toEqual([]);
    const mixed = run(
      { type: 'enter', mode: 'grouping' },
      { type: 'pick', device: light(1) },
      { type: 'pick', device: motion(1) },
    );
    expect(mixed.warning).toBe(SAME_TYPE_TEXT);
    expect(mixed.selection).toEqual(['light-1']);
  });

  it('accepts another type once the selection is empty again', () => {
    const state = run(
      { type: 'enter', mode: 'grouping' },
      { type: 'pick', device: light(1) },
      { type: 'pick', device: light(1) },
      { type: 'pick', device: motion(1) },
    );
    expect(state.selection).toEqual(['motion-1']);
    expect(state.selectionType).toBe(4);
    expect(state.warning).toBeNull();
  });

  it('clears the selection after a save without leaving the mode', () => {
    const state = run(
      { type: 'enter', mode: 'grouping' },
      { type: 'pick', device: light(1) },
      { type: 'clearSelection' },
    );
    expect(state).toEqual({ ...initialModeState, mode: 'grouping' });
  });
});

describe('ungrouping selection', () => {
  it('picks grouped devices and refuses a device without a group', () => {
    const state = run(
      { type: 'enter', mode: 'ungrouping' },
      { type: 'pick', device: light(1, 1234) },
      { type: 'pick', device: light(2) },
    );
    expect(state.selection).toEqual(['light-1']);
    expect(state.warning).toBe(NOT_IN_GROUP_TEXT);
    expect(floorModeReducer(state, { type: 'dismissWarning' }).warning).toBeNull();
  });
});

describe('compare IEQ', () => {
  it('takes a first and a second IEQ sensor', () => {
    const state = run(
      { type: 'enter', mode: 'compareIEQ' },
      { type: 'pick', device: ieq(1) },
      { type: 'pick', device: ieq(2) },
    );
    expect(state.compareFirst?.devID).toBe('ieq-1');
    expect(state.compareSecond?.devID).toBe('ieq-2');
    expect(modeMark(state, 'ieq-1')).toBe('first');
    expect(modeMark(state, 'ieq-2')).toBe('second');
  });

  it('refuses the same device and another type', () => {
    const itself = run(
      { type: 'enter', mode: 'compareIEQ' },
      { type: 'pick', device: ieq(1) },
      { type: 'pick', device: ieq(1) },
    );
    expect(itself.warning).toBe(COMPARE_ITSELF_TEXT);
    expect(itself.compareSecond).toBeNull();
    const otherType = floorModeReducer(itself, { type: 'pick', device: light(1) });
    expect(otherType.warning).toBe(SAME_TYPE_TEXT);
    expect(otherType.compareSecond).toBeNull();
    expect(run({ type: 'enter', mode: 'compareIEQ' }, { type: 'pick', device: motion(1) }).warning).toBe(
      SAME_TYPE_TEXT,
    );
  });

  it('starts over with the next pick after a completed pair', () => {
    const state = run(
      { type: 'enter', mode: 'compareIEQ' },
      { type: 'pick', device: ieq(1) },
      { type: 'pick', device: ieq(2) },
      { type: 'pick', device: ieq(3) },
    );
    expect(state.compareFirst?.devID).toBe('ieq-3');
    expect(state.compareSecond).toBeNull();
  });
});
