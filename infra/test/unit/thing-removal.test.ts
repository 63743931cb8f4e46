import { DeleteConflictException, InvalidRequestException, UnauthorizedException } from '@aws-sdk/client-iot';
import { describe, expect, it } from 'vitest';
import { fakeIot } from '../../../functions/test/support/fakes/iot-client';
import { removeThing } from '../../ops/thing-removal';

/** Sleeps that return at once, recorded. */
function pauses() {
  const slept: number[] = [];
  return { slept, sleep: async (ms: number) => void slept.push(ms) };
}

const THING = 'smoke-0123456789ab';
const POLICY = 'Argentum-device';
const CERT_ID = 'a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2';
const CERT = `arn:aws:iot:eu-west-1:123456789012:cert/${CERT_ID}`;
const meta = { $metadata: { httpStatusCode: 409 } };
const conflict = () =>
  new DeleteConflictException({
    message: 'Certificate policies must be detached before deletion (arn: …)',
    ...meta,
  });
const thingAttached = () =>
  new InvalidRequestException({
    message: `Cannot delete. Thing ${THING} is still attached to one or more principals`,
    $metadata: { httpStatusCode: 400 },
  });
/** The answers up to the deletes: one certificate, detached and deactivated. */
const detached = () => ({
  ListThingPrincipalsCommand: [{ principals: [CERT] }],
  DetachThingPrincipalCommand: [{}],
  DetachPolicyCommand: [{}],
  UpdateCertificateCommand: [{}],
});

describe("the smoke test's removal of its thing", () => {
  it('waits for the detachments to take effect: deletes refused as still attached are tried again, backing off', async () => {
    const iot = fakeIot({
      ...detached(),
      DeleteCertificateCommand: [conflict(), conflict(), {}],
      DeleteThingCommand: [thingAttached(), {}],
    });
    const { slept, sleep } = pauses();
    await removeThing(iot.client, { thingName: THING, policyName: POLICY }, { sleep });
    expect(iot.requests).toEqual([
      { command: 'ListThingPrincipalsCommand', input: { thingName: THING } },
      { command: 'DetachThingPrincipalCommand', input: { thingName: THING, principal: CERT } },
      { command: 'DetachPolicyCommand', input: { policyName: POLICY, target: CERT } },
      { command: 'UpdateCertificateCommand', input: { certificateId: CERT_ID, newStatus: 'INACTIVE' } },
      { command: 'DeleteCertificateCommand', input: { certificateId: CERT_ID } },
      { command: 'DeleteCertificateCommand', input: { certificateId: CERT_ID } },
      { command: 'DeleteCertificateCommand', input: { certificateId: CERT_ID } },
      { command: 'DeleteThingCommand', input: { thingName: THING } },
      { command: 'DeleteThingCommand', input: { thingName: THING } },
    ]);
    expect(slept).toEqual([1000, 2000, 4000]);
  });

  it('gives up after 30 s of waiting, saying what is still attached', async () => {
    const iot = fakeIot({ ...detached(), DeleteCertificateCommand: Array.from({ length: 20 }, conflict) });
    const { slept, sleep } = pauses();
    await expect(
      removeThing(iot.client, { thingName: THING, policyName: POLICY }, { sleep }),
    ).rejects.toThrow(
      `delete certificate ${CERT_ID}: still attached after 30 s (DeleteConflictException: Certificate policies must be detached`,
    );
    expect(slept.reduce((sum, ms) => sum + ms, 0)).toBe(30_000);
    expect(iot.requests.at(-1)?.command).toBe('DeleteCertificateCommand');
  });

  it('does not retry other refusals', async () => {
    const denied = new UnauthorizedException({
      message: 'not authorized',
      $metadata: { httpStatusCode: 401 },
    });
    const iot = fakeIot({ ...detached(), DeleteCertificateCommand: [denied] });
    const { slept, sleep } = pauses();
    await expect(removeThing(iot.client, { thingName: THING, policyName: POLICY }, { sleep })).rejects.toBe(
      denied,
    );
    expect(slept).toEqual([]);
  });
});
