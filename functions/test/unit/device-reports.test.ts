import { describe, expect, it } from 'vitest';
import { reportedProperties } from '../../src/domain/devices/reports';

describe('reportedProperties', () => {
  it('turns pairing mode off on a pairing failure only', () => {
    expect(reportedProperties('fail', { cmnd: 17 })).toEqual({ pairingMode: false });
    expect(reportedProperties('success', { cmnd: 17 })).toBeUndefined();
  });

  it('keeps reported port values 0 and 1 of successes', () => {
    expect(reportedProperties('success', { cmnd: 201, val: 1 })).toEqual({ portOneValue: 1 });
    expect(reportedProperties('success', { cmnd: 202, val: 0 })).toEqual({ portTwoValue: 0 });
    expect(reportedProperties('success', { cmnd: 203, val: 1 })).toEqual({
      portOneValue: 1,
      portTwoValue: 1,
    });
    expect(reportedProperties('fail', { cmnd: 201, val: 1 })).toBeUndefined();
    expect(reportedProperties('success', { cmnd: 201, val: 5 })).toBeUndefined();
    expect(reportedProperties('success', { cmnd: 201, val: [1, 0] })).toBeUndefined();
  });

  it('changes nothing for other commands', () => {
    expect(reportedProperties('success', { cmnd: 54, val: 1 })).toBeUndefined();
    expect(reportedProperties('fail', { cmnd: 1 })).toBeUndefined();
  });
});
