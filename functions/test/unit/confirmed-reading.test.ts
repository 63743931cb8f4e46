import { describe, expect, it } from 'vitest';
import { confirmedReading, confirmedReadingTime } from '../../src/domain/control/confirmed-reading';

const points = (...names: string[]) => names.map((dp) => ({ dp }));

describe("a confirmed command's value, as the device's data points", () => {
  it('names the point each kind reports the value in', () => {
    const light = { devType: 1, connDev: 'light', dataPoints: points('bri') };
    expect(confirmedReading(light, { call: 'setBrightness' }, 37)).toEqual({ bri: 37 });
    const lock = { devType: 3, connDev: 'lock', dataPoints: points('lock') };
    expect(confirmedReading(lock, { call: 'setFanValveValue', port: 0 }, [1, 0, 0, 0])).toEqual({ lock: 1 });
    expect(confirmedReading(lock, { call: 'setFanValveValue', port: 0 }, [0, 0, 0, 0])).toEqual({ lock: 0 });
    const shades = { devType: 3, connDev: 'rollershades', dataPoints: points('shade') };
    expect(confirmedReading(shades, { call: 'setRollerShadesValue' }, 65)).toEqual({ shade: 65 });
    const roomUnit = { devType: 3, connDev: 'valve', dataPoints: points('temp', 'fan', 'valve', 'zone') };
    expect(confirmedReading(roomUnit, { call: 'setFanValveValue', port: 0 }, 4)).toEqual({ fan: 4 });
    expect(confirmedReading(roomUnit, { call: 'setFanValveValue', port: 1 }, 2.5)).toEqual({ valve: 2.5 });
    expect(confirmedReading(roomUnit, { call: 'setFanValveValue', port: '2' }, 22)).toEqual({ zone: 22 });
    const bacnet = { devType: 7, dataPoints: points('sat', 'setpoint') };
    expect(confirmedReading(bacnet, { call: 'setbacnetinfo', key: 'setpoint' }, 21)).toEqual({
      setpoint: 21,
    });
    expect(confirmedReading(bacnet, { call: 'setbacnetinfo', key: 'setpoint' }, true)).toEqual({
      setpoint: 1,
    });
  });

  it('says nothing for a value that names no state, a point the device does not declare, or a test', () => {
    const shades = { devType: 3, connDev: 'rollershades', dataPoints: points('shade') };
    expect(confirmedReading(shades, { call: 'setRollerShadesValue' }, [1, 1, 1, 1])).toBeUndefined();
    expect(confirmedReading(shades, { call: 'setRollerShadesValue' }, [0, 0, 0, 0])).toBeUndefined();
    const lightWithoutPoint = { devType: 1, connDev: 'light', dataPoints: [] };
    expect(confirmedReading(lightWithoutPoint, { call: 'setBrightness' }, 37)).toBeUndefined();
    const bacnet = { devType: 7, dataPoints: points('setpoint') };
    expect(confirmedReading(bacnet, { call: 'setbacnetinfo', key: 'setpoint' }, 'auto')).toBeUndefined();
    expect(confirmedReading(bacnet, { call: 'setbacnetinfo', key: 'other' }, 21)).toBeUndefined();
    const light = { devType: 1, connDev: 'light', dataPoints: points('bri') };
    expect(confirmedReading(light, { call: 'testDevice' }, 1)).toBeUndefined();
  });

  describe('when it goes on as a reading', () => {
    const at = 1_000_000;
    it("is the broker's time of the word when the device's clock is not known", () => {
      expect(confirmedReadingTime({}, { lock: 1 }, at)).toBe(at);
      const before = { latest: { lock: 0 }, latestAt: { lock: at - 60_000 }, lastSeen: at - 60_000 };
      expect(confirmedReadingTime(before, { lock: 1 }, at)).toBe(at);
    });

    it("is put on the device's clock, ahead or behind, whatever its latest reading's time", () => {
      const ahead = { latest: { lock: 0 }, latestAt: { lock: at + 119_000 }, clockOffset: 120_000 };
      expect(confirmedReadingTime(ahead, { lock: 1 }, at)).toBe(at + 120_000);
      const behind = { latest: { lock: 0 }, latestAt: { lock: at - 121_000 }, clockOffset: -120_000 };
      expect(confirmedReadingTime(behind, { lock: 1 }, at)).toBe(at - 120_000);
      // A newer reading that says otherwise (handled before the word) keeps it where it belongs: before.
      const opened = { latest: { lock: 0 }, latestAt: { lock: at + 50 }, clockOffset: 0 };
      expect(confirmedReadingTime(opened, { lock: 1 }, at)).toBe(at);
    });

    it('is not needed when the latest says the same at that time or later (taken already, or reported)', () => {
      const taken = { latest: { lock: 1 }, latestAt: { lock: at + 120_000 }, clockOffset: 120_000 };
      expect(confirmedReadingTime(taken, { lock: 1 }, at)).toBeUndefined();
      const reported = { latest: { lock: 1 }, latestAt: { lock: at + 500 } };
      expect(confirmedReadingTime(reported, { lock: 1 }, at)).toBeUndefined();
      // The same value from before the word: the word is a newer reading of it.
      const earlier = { latest: { lock: 1 }, latestAt: { lock: at - 1 } };
      expect(confirmedReadingTime(earlier, { lock: 1 }, at)).toBe(at);
      // Each point counts: one not said yet makes the reading.
      const oneOfTwo = { latest: { fan: 2, valve: 3 }, latestAt: { fan: at, valve: at - 1 } };
      expect(confirmedReadingTime(oneOfTwo, { fan: 2, valve: 3 }, at)).toBe(at);
    });
  });
});
