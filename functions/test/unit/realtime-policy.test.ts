import { describe, expect, it } from 'vitest';
import { REALTIME_MAX_ORGS } from '@argentum/contracts';
import { topics } from '@argentum/contracts/messaging';
import {
  AUTHORIZER_POLICY_LIMITS,
  pageTopics,
  realtimePolicyDocuments,
} from '../../src/domain/realtime/policy';

// The longest ARN prefix a deployment can have: a long region name and a 12-digit account.
const arn = (kind: string, resource: string) => `arn:aws:iot:ap-southeast-2:123456789012:${kind}/${resource}`;
const clientId = `web-${'0'.repeat(8)}-0000-4000-8000-${'0'.repeat(12)}`;
const userId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const longOrg = (i: number) => `${String(i).padStart(4, '0')}-${'x'.repeat(59)}`; // 64 characters, the id limit

describe('the realtime authorizer policy fits IoT Core (10 documents of 2,048 characters)', () => {
  it('holds the most organizations a connection may name, with the longest ids, split into documents', () => {
    const orgIds = Array.from({ length: REALTIME_MAX_ORGS }, (_, i) => longOrg(i));
    const documents = realtimePolicyDocuments(arn, clientId, userId, orgIds);
    expect(documents).toBeDefined();
    expect(documents?.length).toBeGreaterThan(1);
    expect(documents?.length).toBeLessThanOrEqual(AUTHORIZER_POLICY_LIMITS.maxDocuments);
    for (const document of documents ?? [])
      expect(document.length).toBeLessThanOrEqual(AUTHORIZER_POLICY_LIMITS.maxDocumentChars);
    // Every organization is granted a page's topic filters and topics, and the client id only once.
    const statements = (documents ?? []).flatMap(
      (d) => (JSON.parse(d) as { Statement: { Action: string; Resource: string | string[] }[] }).Statement,
    );
    const resources = (action: string) =>
      statements.filter((s) => s.Action === action).flatMap((s) => s.Resource);
    expect(resources('iot:Connect')).toEqual([arn('client', clientId)]);
    expect(resources('iot:Subscribe')).toEqual(
      orgIds
        .flatMap((o) => [`${o}/live/*`, `${o}/commandstatus/${userId}`, `${o}/notification`])
        .map((t) => arn('topicfilter', t)),
    );
    expect(resources('iot:Receive')).toEqual(
      orgIds.flatMap((o) => pageTopics(o, userId)).map((t) => arn('topic', t)),
    );
    expect(statements.map((s) => s.Action).filter((a) => a === 'iot:Publish')).toEqual([]);
  });

  it("grants a page what it shows, never devices' words nor another user's command outcomes", () => {
    expect(pageTopics('org-a', userId)).toEqual([
      topics.floorLive('org-a', '*'),
      topics.commandStatus('org-a', userId),
      topics.notification('org-a'),
    ]);
    const granted = pageTopics('org-a', userId).join(' ');
    for (const denied of ['sensordata', 'controldata', 'commandstatus/*', 'org-a/*'])
      expect(granted).not.toContain(denied);
  });

  it('starts a new document exactly where one more organization would pass 2,048 characters', () => {
    const orgIds = Array.from({ length: 12 }, (_, i) => `org-${i}`);
    const documents = realtimePolicyDocuments(arn, clientId, userId, orgIds) ?? [];
    expect(documents.length).toBeGreaterThan(1);
    const first = documents[0] ?? '';
    const firstCount = (JSON.parse(first) as { Statement: { Resource: unknown }[] }).Statement[2]?.Resource;
    const held = (firstCount as string[]).length / pageTopics('org', userId).length;
    expect(first.length).toBeLessThanOrEqual(2048);
    // The same document with the next organization would not fit.
    const withNext = realtimePolicyDocuments(arn, clientId, userId, orgIds.slice(0, held + 1)) ?? [];
    expect(withNext).toHaveLength(2);
    expect(realtimePolicyDocuments(arn, clientId, userId, orgIds.slice(0, held))).toEqual([first]);
  });

  it('refuses (undefined) a user id that would reach further than its own topic level', () => {
    for (const id of ['', '*', 'u-*', 'u?', 'a/b', '+', '#'])
      expect(realtimePolicyDocuments(arn, clientId, id, ['org-a']), id).toBeUndefined();
    expect(realtimePolicyDocuments(arn, clientId, userId, ['org-a'])).toHaveLength(1);
  });

  it('refuses (undefined) rather than answer more than 10 documents', () => {
    const orgIds = Array.from({ length: 200 }, (_, i) => longOrg(i));
    expect(realtimePolicyDocuments(arn, clientId, userId, orgIds)).toBeUndefined();
  });
});
