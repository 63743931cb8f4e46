import {
  AttachPolicyCommand,
  AttachThingPrincipalCommand,
  CreateKeysAndCertificateCommand,
  CreateThingCommand,
  DescribeEndpointCommand,
  DescribeThingCommand,
  DetachThingPrincipalCommand,
  type IoTClient,
  ListThingPrincipalsCommand,
  ResourceNotFoundException,
  UpdateCertificateCommand,
} from '@aws-sdk/client-iot';
import type { IssuedCertificate, ThingRegistry } from '../domain/devices/provisioning';

/** The part of the IoT client the adapter uses (tests give a recorded stand-in of `send`). */
export type IotControlClient = Pick<IoTClient, 'send'>;

/** A certificate's id: the last part of its ARN (`arn:aws:iot:{region}:{account}:cert/{id}`). */
export const certificateIdOf = (certificateArn: string) =>
  certificateArn.slice(certificateArn.lastIndexOf('/') + 1);

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined || value === null || value === '')
    throw new Error(`AWS IoT answered without ${what}`);
  return value;
}

/** The IoT control plane (things, certificates, policies) as the device provisioning needs it. */
export function iotThingRegistry(client: IotControlClient): ThingRegistry {
  return {
    async describeThing(thingName) {
      try {
        const thing = await client.send(new DescribeThingCommand({ thingName }));
        return { attributes: thing.attributes ?? {} };
      } catch (error) {
        if (error instanceof ResourceNotFoundException) return undefined;
        throw error;
      }
    },
    async createThing(thingName, attributes) {
      await client.send(new CreateThingCommand({ thingName, attributePayload: { attributes } }));
    },
    async principalsOf(thingName) {
      const principals: string[] = [];
      let nextToken: string | undefined;
      do {
        const page = await client.send(new ListThingPrincipalsCommand({ thingName, nextToken }));
        principals.push(...(page.principals ?? []));
        nextToken = page.nextToken;
      } while (nextToken);
      return principals;
    },
    async createCertificate(): Promise<IssuedCertificate> {
      const issued = await client.send(new CreateKeysAndCertificateCommand({ setAsActive: true }));
      return {
        certificateArn: required(issued.certificateArn, 'a certificate ARN'),
        certificateId: required(issued.certificateId, 'a certificate id'),
        certificatePem: required(issued.certificatePem, 'a certificate'),
        privateKey: required(issued.keyPair?.PrivateKey, 'a private key'),
      };
    },
    async attachPolicy(policyName, certificateArn) {
      await client.send(new AttachPolicyCommand({ policyName, target: certificateArn }));
    },
    async attachToThing(thingName, certificateArn) {
      await client.send(new AttachThingPrincipalCommand({ thingName, principal: certificateArn }));
    },
    async detachFromThing(thingName, certificateArn) {
      await client.send(new DetachThingPrincipalCommand({ thingName, principal: certificateArn }));
    },
    async deactivateCertificate(certificateArn) {
      await client.send(
        new UpdateCertificateCommand({
          certificateId: certificateIdOf(certificateArn),
          newStatus: 'INACTIVE',
        }),
      );
    },
    async dataEndpoint() {
      const { endpointAddress } = await client.send(
        new DescribeEndpointCommand({ endpointType: 'iot:Data-ATS' }),
      );
      return required(endpointAddress, 'an endpoint address');
    },
  };
}
