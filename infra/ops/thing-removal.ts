import { DeleteCertificateCommand, DeleteThingCommand, DetachPolicyCommand } from '@aws-sdk/client-iot';
import {
  certificateIdOf,
  type IotControlClient,
  iotThingRegistry,
} from '@argentum/functions/adapters/iot-things';

export interface RemovalPacing {
  /** How long, in all, the removal waits for detachments to take effect (ms); 30 s by default. */
  patienceMs?: number;
  /** Waits between attempts (tests answer at once). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * IoT's answer while a detachment has not taken effect yet: DeleteCertificate's DeleteConflictException
 * (a thing or policy still attached), DeleteThing's InvalidRequestException ("Cannot delete. Thing … is
 * still attached to one or more principals").
 */
const stillAttached = (error: unknown) =>
  error instanceof Error &&
  (error.name === 'DeleteConflictException' ||
    (error.name === 'InvalidRequestException' && /still attached/i.test(error.message)));

/**
 * Removes a thing with its certificates: each certificate detached from the thing and from the device
 * policy, deactivated and deleted, then the thing. DetachThingPrincipal is asynchronous ("it might take
 * several seconds for the detachment to propagate"), so the deletes are tried again while IoT still
 * sees an attachment, backing off, for `patienceMs` in all; then the last refusal is thrown.
 */
export async function removeThing(
  iot: IotControlClient,
  { thingName, policyName }: { thingName: string; policyName: string },
  pacing: RemovalPacing = {},
): Promise<void> {
  const sleep = pacing.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const patienceMs = pacing.patienceMs ?? 30_000;
  let waited = 0;
  let delay = 1000;
  const patiently = async (what: string, call: () => Promise<unknown>) => {
    for (;;) {
      try {
        await call();
        return;
      } catch (error) {
        if (!stillAttached(error)) throw error;
        const pause = Math.min(delay, patienceMs - waited);
        if (pause <= 0)
          throw new Error(
            `${what}: still attached after ${Math.round(waited / 1000)} s (${(error as Error).name}: ${(error as Error).message})`,
            { cause: error },
          );
        await sleep(pause);
        waited += pause;
        delay = Math.min(delay * 2, 8000);
      }
    }
  };

  const things = iotThingRegistry(iot);
  const principals = await things.principalsOf(thingName);
  for (const principal of principals) {
    await things.detachFromThing(thingName, principal);
    await iot.send(new DetachPolicyCommand({ policyName, target: principal }));
    await things.deactivateCertificate(principal);
  }
  for (const principal of principals) {
    const certificateId = certificateIdOf(principal);
    await patiently(`delete certificate ${certificateId}`, () =>
      iot.send(new DeleteCertificateCommand({ certificateId })),
    );
  }
  await patiently(`delete thing ${thingName}`, () => iot.send(new DeleteThingCommand({ thingName })));
}
