import { describe, expect, it } from 'vitest';
import { confirmationMessageSchema, telemetryMessageSchema } from '@argentum/contracts/messaging';
import { unstorableField } from '../../src/http/storable-body';

/** What DynamoDB and the document client refuse is refused where it comes in (contracts' `storable`). */
describe('values the store cannot hold', () => {
  it('names the first number of a request body outside the stored range, or the key it cannot take', () => {
    const fits = { value: 0, floorOrigin: { x: 1e-130, y: -9007199254740991 }, list: [1.5, -0, 2e-17] };
    expect(unstorableField(fits)).toBeUndefined();
    expect(unstorableField({ floorOrigin: { x: 0.5, y: 5e-324 } })).toBe(
      'floorOrigin.y must be 0 or between 1e-130 and 9007199254740991 in size.',
    );
    expect(unstorableField({ dropDevicesList: [{ floorOrigin: { x: -1e-131 } }] })).toBe(
      'dropDevicesList.0.floorOrigin.x must be 0 or between 1e-130 and 9007199254740991 in size.',
    );
    expect(unstorableField({ devUpdateObj: { properties: { volt: 2 ** 53 } } })).toBe(
      'devUpdateObj.properties.volt must be 0 or between 1e-130 and 9007199254740991 in size.',
    );
    expect(unstorableField(1e308)).toBe(
      'request body must be 0 or between 1e-130 and 9007199254740991 in size.',
    );
    expect(unstorableField({ properties: { '': 1 } })).toBe("'' in properties is not an allowed name.");
    // The document client takes a map with an own 'constructor' for a class instance.
    expect(unstorableField(JSON.parse('{"properties":{"constructor":1}}'))).toBe(
      "'constructor' in properties is not an allowed name.",
    );
    expect(unstorableField(JSON.parse('{"a":{"__proto__":{"b":1}}}'))).toBe(
      "'__proto__' in a is not an allowed name.",
    );
    expect(unstorableField({ properties: { constructorName: 'x', volt: 3.3 } })).toBeUndefined();
  });

  it("refuses a device's reading or word the store could not hold, so it cannot fail its batch", () => {
    const reading = (values: Record<string, number>) => ({ devID: 'D1', devType: 5, values });
    expect(telemetryMessageSchema.safeParse(reading({ temp: 21.5, co2: 0 })).success).toBe(true);
    expect(telemetryMessageSchema.safeParse(reading({ temp: 1e-200 })).success).toBe(false);
    expect(
      telemetryMessageSchema.safeParse(JSON.parse('{"devID":"D1","devType":5,"values":{"constructor":1}}'))
        .success,
    ).toBe(false);
    const word = (val: unknown) => ({ action: 'success', devID: 'D1', val });
    expect(confirmationMessageSchema.safeParse(word(60)).success).toBe(true);
    expect(confirmationMessageSchema.safeParse(word(1e-200)).success).toBe(false);
    expect(confirmationMessageSchema.safeParse(word([1, 2 ** 60, 0, 0])).success).toBe(false);
    expect(confirmationMessageSchema.safeParse({ action: 'fail', devID: 'D1', grpID: 2 ** 60 }).success).toBe(
      false,
    );
  });
});
