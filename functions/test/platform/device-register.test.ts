import { describe, expect, it } from 'vitest';
import { DeviceType } from '@argentum/contracts';
import { REGISTER_MESSAGES, type RegisterPorts, registerDevice } from '../../src/domain/devices/register';
import { DomainError } from '../../src/domain/errors';
import { systemClock } from '../../src/domain/ports';
import { dynamoDevices } from '../../src/stores/devices';
import { dynamoTreeStore } from '../../src/stores/tree';
import { newDevId, newDevices, newPlace } from './devices-fixtures';

/** Device registration (ops provisioning) over the DynamoDB stores: the gateway a device reports through. */
const ports: RegisterPorts = { devices: dynamoDevices, tree: dynamoTreeStore, clock: systemClock };

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => undefined,
    (error: unknown) => (error instanceof DomainError ? { kind: error.kind, message: error.message } : error),
  );

describe('registering a device with its gateway', () => {
  it('records the gateway; a second run keeps it, a run naming another gateway moves the device', async () => {
    const place = await newPlace('Gateways');
    const [first, second] = await newDevices(place, [{ devType: 0 }, { devType: 0 }], place.floorId);
    if (!first || !second) throw new Error('no gateways');
    const devId = newDevId();
    const request = {
      orgId: place.orgId,
      devId,
      devType: DeviceType.ieq,
      devName: 'IEQ1',
      gatewayId: first.devID,
    };

    const registered = await registerDevice(ports, request);
    expect(registered).toMatchObject({ outcome: 'registered', device: { gatewayID: first.devID } });
    expect((await dynamoDevices.get(devId))?.gatewayID).toBe(first.devID);

    expect(await registerDevice(ports, request)).toMatchObject({ outcome: 'already-registered' });
    // Without a gateway named, a second run leaves the one recorded.
    const { gatewayId: _none, ...withoutGateway } = request;
    expect(await registerDevice(ports, withoutGateway)).toMatchObject({
      outcome: 'already-registered',
      device: { gatewayID: first.devID },
    });

    const moved = await registerDevice(ports, { ...request, gatewayId: second.devID });
    expect(moved).toMatchObject({
      outcome: 'gateway-changed',
      device: { gatewayID: second.devID, version: 1 },
    });
    expect(await dynamoDevices.get(devId)).toMatchObject({ gatewayID: second.devID, version: 1 });
  });

  it('answers an unknown gateway, a device that is not one and a gateway of another organization alike', async () => {
    const place = await newPlace('Gateways');
    const other = await newPlace('Elsewhere');
    const [sensor] = await newDevices(place, [{ devType: DeviceType.motion }]);
    const [foreign] = await newDevices(other, [{ devType: DeviceType.gateway }]);
    if (!sensor || !foreign) throw new Error('no devices');
    for (const gatewayId of ['00:00:00:00:00:00', sensor.devID, foreign.devID]) {
      const devId = newDevId();
      expect(
        await refusal(
          registerDevice(ports, { orgId: place.orgId, devId, devType: 5, devName: 'IEQ1', gatewayId }),
        ),
      ).toEqual({ kind: 'not-found', message: REGISTER_MESSAGES.noGateway(gatewayId, place.orgId) });
      // Nothing was registered.
      expect(await dynamoDevices.get(devId)).toBeUndefined();
    }
  });

  it('refuses a gateway for a gateway and a device reporting through itself', async () => {
    const place = await newPlace('Gateways');
    const [gateway] = await newDevices(place, [{ devType: DeviceType.gateway }]);
    if (!gateway) throw new Error('no gateway');
    const devId = newDevId();
    expect(
      await refusal(
        registerDevice(ports, {
          orgId: place.orgId,
          devId,
          devType: 0,
          devName: 'Gw2',
          gatewayId: gateway.devID,
        }),
      ),
    ).toEqual({ kind: 'validation', message: REGISTER_MESSAGES.gatewayOfGateway });
    expect(
      await refusal(
        registerDevice(ports, { orgId: place.orgId, devId, devType: 5, devName: 'IEQ1', gatewayId: devId }),
      ),
    ).toEqual({ kind: 'validation', message: REGISTER_MESSAGES.ownGateway });
    // A registered gateway named with another type is still a gateway: it gets no gateway either.
    const [otherGateway] = await newDevices(place, [{ devType: DeviceType.gateway }]);
    if (!otherGateway) throw new Error('no gateway');
    expect(
      await refusal(
        registerDevice(ports, {
          orgId: place.orgId,
          devId: otherGateway.devID,
          devType: 5,
          devName: 'Gw',
          gatewayId: gateway.devID,
        }),
      ),
    ).toEqual({ kind: 'validation', message: REGISTER_MESSAGES.gatewayOfGateway });
    expect((await dynamoDevices.get(otherGateway.devID))?.gatewayID).toBeUndefined();
  });

  it('moves a device renamed meanwhile to its gateway on top of the rename', async () => {
    const place = await newPlace('Gateways');
    const [first, second] = await newDevices(place, [{ devType: 0 }, { devType: 0 }]);
    if (!first || !second) throw new Error('no gateways');
    const devId = newDevId();
    const request = { orgId: place.orgId, devId, devType: 5, devName: 'IEQ1', gatewayId: first.devID };
    await registerDevice(ports, request);

    // Someone renames the device between the registration's read and its write.
    let renamed = false;
    const racing: RegisterPorts = {
      ...ports,
      devices: {
        ...dynamoDevices,
        commit: async (write) => {
          if (!renamed) {
            renamed = true;
            const before = await dynamoDevices.get(devId);
            await dynamoDevices.commit({
              devices: [
                {
                  devId,
                  orgId: place.orgId,
                  expectedVersion: before?.version ?? 0,
                  set: { devName: 'Renamed' },
                },
              ],
              floors: [],
              groups: [],
              live: [],
              now: new Date().toISOString(),
            });
          }
          return dynamoDevices.commit(write);
        },
      },
    };
    expect(await registerDevice(racing, { ...request, gatewayId: second.devID })).toMatchObject({
      outcome: 'gateway-changed',
      device: { devName: 'Renamed', gatewayID: second.devID, version: 2 },
    });
    expect(await dynamoDevices.get(devId)).toMatchObject({
      devName: 'Renamed',
      gatewayID: second.devID,
      version: 2,
    });
  });

  it("seeds the demo's placed devices with a gateway of their own organization (Sensor-Node(link))", async () => {
    for (const orgId of ['org-demo', 'org-other']) {
      const devices = await dynamoDevices.ofOrganization(orgId);
      const gateways = new Set(devices.filter((d) => d.devType === DeviceType.gateway).map((d) => d.devID));
      const linked = devices.filter(
        (d) => d.onFloor && d.devType !== DeviceType.gateway && d.devType !== DeviceType.thirdParty,
      );
      expect(linked.length).toBeGreaterThan(2);
      expect(linked.filter((d) => !gateways.has(d.gatewayID ?? ''))).toEqual([]);
    }
  });
});
