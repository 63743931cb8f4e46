import { readFileSync } from 'node:fs';
import { ResourceNotFoundException } from '@aws-sdk/client-iot';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/domain/errors';
import { issueThingIdentity } from '../../src/domain/devices/provisioning';
import { certificateIdOf, iotThingRegistry } from '../../src/adapters/iot-things';
import { fakeIot } from '../support/fakes/iot-client';

/**
 * The IoT control-plane adapter against the service's documented answers: a fake of the SDK client's
 * `send` that records each request (command and input) and answers the recorded response shapes.
 */
const shapes = JSON.parse(
  readFileSync(new URL('../support/fixtures/iot-control-plane.json', import.meta.url), 'utf8'),
) as Record<string, Record<string, unknown>>;
const shape = (name: string) => structuredClone(shapes[name]) as Record<string, unknown>;

const THING = 'AA:BB:CC:00:00:01';
const POLICY = 'Argentum-device';
const OLD_CERT = (shapes.listThingPrincipals?.principals as string[])[0] as string;
const NEW_CERT = shapes.createKeysAndCertificate?.certificateArn as string;

const notFound = () =>
  new ResourceNotFoundException({
    message: String(shapes.thingNotFound?.message),
    $metadata: { httpStatusCode: 404 },
  });

describe('AWS IoT thing registry adapter (recorded shapes)', () => {
  it('makes a new device: the thing with its orgID, an active certificate with the device policy, attached', async () => {
    const iot = fakeIot({
      DescribeThingCommand: [notFound()],
      CreateThingCommand: [shape('createThing')],
      DescribeEndpointCommand: [shape('describeEndpoint')],
      CreateKeysAndCertificateCommand: [shape('createKeysAndCertificate')],
      AttachPolicyCommand: [shape('empty')],
      AttachThingPrincipalCommand: [shape('empty')],
    });
    const identity = await issueThingIdentity(
      { things: iotThingRegistry(iot.client) },
      { orgId: 'org-1', devId: THING, policyName: POLICY },
    );
    expect(iot.requests).toEqual([
      { command: 'DescribeThingCommand', input: { thingName: THING } },
      {
        command: 'CreateThingCommand',
        input: { thingName: THING, attributePayload: { attributes: { orgID: 'org-1' } } },
      },
      { command: 'DescribeEndpointCommand', input: { endpointType: 'iot:Data-ATS' } },
      { command: 'CreateKeysAndCertificateCommand', input: { setAsActive: true } },
      { command: 'AttachPolicyCommand', input: { policyName: POLICY, target: NEW_CERT } },
      { command: 'AttachThingPrincipalCommand', input: { thingName: THING, principal: NEW_CERT } },
    ]);
    expect(identity).toEqual({
      endpoint: 'a1b2c3d4e5f6g7-ats.iot.eu-west-1.amazonaws.com',
      thingCreated: true,
      certificate: {
        certificateArn: NEW_CERT,
        certificateId: certificateIdOf(NEW_CERT),
        certificatePem: (shapes.createKeysAndCertificate as { certificatePem: string }).certificatePem,
        privateKey: (shapes.createKeysAndCertificate as { keyPair: { PrivateKey: string } }).keyPair
          .PrivateKey,
      },
      retired: [],
    });
  });

  it('runs again without a second certificate when the thing has one', async () => {
    const iot = fakeIot({
      DescribeThingCommand: [shape('describeThing')],
      DescribeEndpointCommand: [shape('describeEndpoint')],
      ListThingPrincipalsCommand: [shape('listThingPrincipals')],
    });
    const identity = await issueThingIdentity(
      { things: iotThingRegistry(iot.client) },
      { orgId: 'org-1', devId: THING, policyName: POLICY },
    );
    expect(iot.requests.map((r) => r.command)).toEqual([
      'DescribeThingCommand',
      'DescribeEndpointCommand',
      'ListThingPrincipalsCommand',
    ]);
    expect(iot.requests[2]?.input).toEqual({ thingName: THING, nextToken: undefined });
    expect(identity).toEqual({ endpoint: expect.any(String), thingCreated: false, retired: [] });
  });

  it('rotates: the new certificate is attached before the old one is detached and deactivated', async () => {
    const iot = fakeIot({
      DescribeThingCommand: [shape('describeThing')],
      DescribeEndpointCommand: [shape('describeEndpoint')],
      // A second page: every principal is read, however many pages the answer takes.
      ListThingPrincipalsCommand: [{ principals: [], nextToken: 'page-2' }, shape('listThingPrincipals')],
      CreateKeysAndCertificateCommand: [shape('createKeysAndCertificate')],
      AttachPolicyCommand: [shape('empty')],
      AttachThingPrincipalCommand: [shape('empty')],
      DetachThingPrincipalCommand: [shape('empty')],
      UpdateCertificateCommand: [shape('empty')],
    });
    const identity = await issueThingIdentity(
      { things: iotThingRegistry(iot.client) },
      { orgId: 'org-1', devId: THING, policyName: POLICY, rotate: true },
    );
    expect(iot.requests.slice(2)).toEqual([
      { command: 'ListThingPrincipalsCommand', input: { thingName: THING, nextToken: undefined } },
      { command: 'ListThingPrincipalsCommand', input: { thingName: THING, nextToken: 'page-2' } },
      { command: 'CreateKeysAndCertificateCommand', input: { setAsActive: true } },
      { command: 'AttachPolicyCommand', input: { policyName: POLICY, target: NEW_CERT } },
      { command: 'AttachThingPrincipalCommand', input: { thingName: THING, principal: NEW_CERT } },
      { command: 'DetachThingPrincipalCommand', input: { thingName: THING, principal: OLD_CERT } },
      {
        command: 'UpdateCertificateCommand',
        input: { certificateId: OLD_CERT.slice(OLD_CERT.lastIndexOf('/') + 1), newStatus: 'INACTIVE' },
      },
    ]);
    expect(identity.retired).toEqual([OLD_CERT]);
    expect(identity.certificate?.certificateArn).toBe(NEW_CERT);
  });

  it('refuses a thing of another organization and makes nothing', async () => {
    const iot = fakeIot({ DescribeThingCommand: [shape('describeThing')] });
    const attempt = issueThingIdentity(
      { things: iotThingRegistry(iot.client) },
      { orgId: 'org-2', devId: THING, policyName: POLICY },
    );
    await expect(attempt).rejects.toEqual(
      new DomainError(
        'conflict',
        `Thing ${THING} belongs to organization org-1; it is not moved to another one.`,
      ),
    );
    await expect(attempt).rejects.toMatchObject({ kind: 'conflict' });
    expect(iot.requests.map((r) => r.command)).toEqual(['DescribeThingCommand']);
  });

  it('passes on failures other than a missing thing, and answers without a private key are refused', async () => {
    const denied = Object.assign(new Error('User is not authorized to perform: iot:DescribeThing'), {
      name: 'AccessDeniedException',
    });
    await expect(
      iotThingRegistry(fakeIot({ DescribeThingCommand: [denied] }).client).describeThing(THING),
    ).rejects.toBe(denied);
    const keyless = { ...shape('createKeysAndCertificate'), keyPair: {} };
    await expect(
      iotThingRegistry(fakeIot({ CreateKeysAndCertificateCommand: [keyless] }).client).createCertificate(),
    ).rejects.toThrow('AWS IoT answered without a private key');
  });
});
