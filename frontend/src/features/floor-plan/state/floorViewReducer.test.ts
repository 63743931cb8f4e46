import type { DeviceView } from '@argentum/contracts';
import { describe, expect, it } from 'vitest';
import { floorViewReducer, initialFloorViewState, type FloorViewState } from './floorViewReducer';

const device = (devID: string, devType: number, floorOrigin = { x: 0.5, y: 0.5 }) =>
  ({
    devID,
    devType,
    devName: devID,
    onFloor: true,
    floorOrigin,
    dataPoints: [],
    properties: {},
  }) as unknown as DeviceView;

const start = (): FloorViewState => initialFloorViewState({ hiddenTypes: [], planHeight: 400 });

describe('the floor view state', () => {
  it('selects a device on activation and deselects it on a second one, pinning it and showing its popup', () => {
    const light = device('L1', 1);
    let state = floorViewReducer(start(), { type: 'activate', device: light });
    expect([state.selectedId, state.pinnedId, state.popupId]).toEqual(['L1', 'L1', 'L1']);
    state = floorViewReducer(state, { type: 'activate', device: light });
    expect(state.selectedId).toBeNull();
  });

  it('picks instead of selecting while grouping', () => {
    let state = floorViewReducer(start(), { type: 'enterMode', mode: 'grouping', devices: [] });
    state = floorViewReducer(state, { type: 'activate', device: device('L1', 1) });
    expect(state.mode.selection).toEqual(['L1']);
    expect(state.selectedId).toBeNull();
  });

  it('starts an edit session from the saved devices, moves and opens placed devices, and drops it on exit', () => {
    const light = device('L1', 1);
    let state = floorViewReducer(
      { ...start(), panels: { filters: true, details: false, links: false, upload: false } },
      { type: 'enterMode', mode: 'edit', devices: [light] },
    );
    expect(state.panels.filters).toBe(false);
    expect(state.edit?.baseline.has('L1')).toBe(true);
    state = floorViewReducer(state, {
      type: 'edit',
      action: { type: 'move', devID: 'L1', origin: { x: 0.2, y: 0.3 } },
    });
    expect(state.edit?.moved.get('L1')).toEqual({ x: 0.2, y: 0.3 });
    state = floorViewReducer(state, { type: 'activate', device: light });
    expect(state.editOpenedId).toBe('L1');
    expect(state.selectedId).toBeNull();
    // A device that is not on the plan in this session opens nothing.
    state = floorViewReducer(state, { type: 'edit', action: { type: 'remove', devID: 'L1' } });
    state = floorViewReducer(state, { type: 'editOpen', devID: null });
    expect(floorViewReducer(state, { type: 'activate', device: light }).editOpenedId).toBeNull();
    state = floorViewReducer(state, { type: 'mode', action: { type: 'exit' } });
    expect(state.edit).toBeNull();
    expect(state.mode.mode).toBe('normal');
  });
});
