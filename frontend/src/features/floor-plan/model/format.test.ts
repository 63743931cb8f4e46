import { describe, expect, it } from 'vitest';
import { formatReading, formatVoltage, occupancyText, truncateName } from './format';

describe('readings', () => {
  it('shows voltage with 2 decimals and readings with 1', () => {
    expect(formatVoltage(3.3)).toBe('3.30 V');
    expect(formatVoltage(3.14159)).toBe('3.14 V');
    expect(formatReading('temp', 22.46)).toBe('22.5 °C');
    expect(formatReading('hum', 45)).toBe('45.0 %');
    expect(formatReading('unknownPoint', 7.25)).toBe('7.3');
  });

  it('divides pressure by 1000 (a value already in kPa is left as it is)', () => {
    expect(formatReading('pressure', 101325)).toBe('101.3 kPA');
    expect(formatReading('pressure', 101.3)).toBe('101.3 kPA');
  });

  it("words a lock's state and a switch's", () => {
    expect(formatReading('lock', 1)).toBe('Locked');
    expect(formatReading('lock', 0)).toBe('Unlocked');
    expect(formatReading('state', 1)).toBe('On');
    expect(formatReading('state', 0)).toBe('Off');
    expect(formatReading('state', 3)).toBe('3.0');
  });

  it('names motion states', () => {
    expect(occupancyText(1)).toBe('Occupied');
    expect(occupancyText(0)).toBe('Unoccupied');
    expect(occupancyText(undefined)).toBe('Unoccupied');
  });

  it('truncates names at 20 characters', () => {
    expect(truncateName('ShortName')).toBe('ShortName');
    expect(truncateName('A'.repeat(20))).toBe('A'.repeat(20));
    expect(truncateName('MeetingRoomSensorNorthWing')).toBe('MeetingRoomSensorNor…');
  });
});
