import { basicIngestTopic, topics } from '@argentum/contracts/messaging';
import { conflict } from '../errors';

/** The attribute of a device's IoT thing that names its organization (the device policy reads it). */
export const ORG_ATTRIBUTE = 'orgID';

/** A new certificate and its keys, as the cloud issues them (the private key is never shown again). */
export interface IssuedCertificate {
  certificateArn: string;
  certificateId: string;
  certificatePem: string;
  privateKey: string;
}

/**
 * The cloud's registry of device identities (AWS IoT things and certificates; the adapter is
 * adapters/iot-things.ts).
 */
export interface ThingRegistry {
  /** The thing's attributes, or undefined when there is no such thing. */
  describeThing(thingName: string): Promise<{ attributes: Record<string, string> } | undefined>;
  createThing(thingName: string, attributes: Record<string, string>): Promise<void>;
  /** The principals (certificate ARNs) attached to the thing. */
  principalsOf(thingName: string): Promise<string[]>;
  /** A new active certificate with its key pair. */
  createCertificate(): Promise<IssuedCertificate>;
  attachPolicy(policyName: string, certificateArn: string): Promise<void>;
  attachToThing(thingName: string, certificateArn: string): Promise<void>;
  detachFromThing(thingName: string, certificateArn: string): Promise<void>;
  deactivateCertificate(certificateArn: string): Promise<void>;
  /** The account's ATS data endpoint host, where devices connect. */
  dataEndpoint(): Promise<string>;
}

export interface ThingIdentityRequest {
  orgId: string;
  devId: string;
  /** The device policy (one for every device; its policy variables confine each to its own topics). */
  policyName: string;
  /** Issue a new certificate even when the thing has one; the old ones are detached and deactivated. */
  rotate?: boolean;
}

export interface ThingIdentity {
  endpoint: string;
  thingCreated: boolean;
  /** The new certificate; undefined when the thing kept the one it had. */
  certificate?: IssuedCertificate;
  /** Certificates detached and deactivated by a rotation. */
  retired: string[];
}

export const PROVISIONING_MESSAGES = {
  thingOfOtherOrganization: (devId: string, orgId: string | undefined) =>
    `Thing ${devId} belongs to organization ${orgId ?? '(none)'}; it is not moved to another one.`,
} as const;

/**
 * The device's identity in the cloud, made idempotently: the thing (attribute orgID), and unless it
 * has one (or a rotation is asked for) an active certificate with the device policy, attached to it.
 */
export async function issueThingIdentity(
  deps: { things: ThingRegistry },
  request: ThingIdentityRequest,
): Promise<ThingIdentity> {
  const { things } = deps;
  const existing = await things.describeThing(request.devId);
  if (existing && existing.attributes[ORG_ATTRIBUTE] !== request.orgId)
    throw conflict(
      PROVISIONING_MESSAGES.thingOfOtherOrganization(request.devId, existing.attributes[ORG_ATTRIBUTE]),
    );
  if (!existing) await things.createThing(request.devId, { [ORG_ATTRIBUTE]: request.orgId });
  const endpoint = await things.dataEndpoint();
  const current = existing ? await things.principalsOf(request.devId) : [];
  if (current.length > 0 && !request.rotate) return { endpoint, thingCreated: !existing, retired: [] };

  const certificate = await things.createCertificate();
  await things.attachPolicy(request.policyName, certificate.certificateArn);
  await things.attachToThing(request.devId, certificate.certificateArn);
  // The new certificate works before the old ones stop: a device swapped over loses no messages.
  for (const arn of current) {
    await things.detachFromThing(request.devId, arn);
    await things.deactivateCertificate(arn);
  }
  return { endpoint, thingCreated: !existing, certificate, retired: current };
}

/** The topics a device uses (docs/deploy.md), given the telemetry rule's name for Basic Ingest. */
export function deviceTopics(orgId: string, devId: string, telemetryRuleName?: string) {
  return {
    /** Telemetry through Basic Ingest (no messaging charge); undefined when the rule is not known. */
    telemetry: telemetryRuleName
      ? basicIngestTopic(telemetryRuleName, topics.sensorData(orgId, devId))
      : topics.sensorData(orgId, devId),
    telemetryMqtt: topics.sensorData(orgId, devId),
    commands: topics.control(orgId, devId),
    confirmations: [topics.controlSuccess(orgId), topics.controlFail(orgId)],
  };
}
