import { describe, expect, it } from 'vitest';
import { confirmationRuleSql } from '../../cdk/constructs/control-confirmations';
import { telemetryRuleSql } from '../../cdk/constructs/telemetry-intake';
import { confirmationRuleEvent } from '../../local/confirmation-rule';
import { telemetryRuleBody, telemetryRuleReceives } from '../../local/rule-runner';

/** The fields a rule's `SELECT *, f(...) AS name, ...` adds to the payload, in order. */
const selected = (sql: string) => [...sql.matchAll(/\bAS (\w+)/g)].map((m) => m[1]);

describe('the local rules make what the IoT rules in CDK select', () => {
  it('telemetry: the payload plus topic(1) AS orgId, topic(3) AS topicDevId, clientid() AS clientId, timestamp() AS receivedAt', () => {
    expect(selected(telemetryRuleSql)).toEqual(['orgId', 'topicDevId', 'clientId', 'receivedAt']);
    const message = { devID: 'AA:01', orgId: 'forged', clientId: 'forged' };
    const body = telemetryRuleBody('org-1/sensordata/AA:01', message, 'AA:01', 42);
    expect(body).toEqual({
      devID: 'AA:01',
      orgId: 'org-1',
      topicDevId: 'AA:01',
      clientId: 'AA:01',
      receivedAt: 42,
    });
    // Basic Ingest reaches the rule without its prefix; the data plane publishes as no MQTT client.
    const ingested = telemetryRuleBody('$aws/rules/r/org-1/sensordata/AA:01', { devID: 'AA:01' }, 'n/a', 7);
    expect(ingested).toMatchObject({ orgId: 'org-1', topicDevId: 'AA:01', clientId: 'n/a' });
  });

  it("telemetry: the rule receives its filter's topics and its own Basic Ingest topic only", () => {
    expect(telemetryRuleReceives('org-1/sensordata/AA:01', 'r')).toBe(true);
    expect(telemetryRuleReceives('$aws/rules/r/org-1/sensordata/AA:01', 'r')).toBe(true);
    expect(telemetryRuleReceives('$aws/rules/other/org-1/sensordata/AA:01', 'r')).toBe(false);
    expect(telemetryRuleReceives('org-1/sensordata/AA:01/x', 'r')).toBe(false);
    expect(telemetryRuleReceives('org-1/controldata/AA:01', 'r')).toBe(false);
    expect(telemetryRuleReceives('$SYS/sensordata/x', 'r')).toBe(false);
  });

  it("confirmations: the payload plus topic(1), topic(3), clientid() and timestamp(); success and fail, the client's own devID only", () => {
    expect(selected(confirmationRuleSql)).toEqual(['orgId', 'outcome', 'clientId', 'receivedAt']);
    expect(confirmationRuleSql).toMatch(
      /WHERE \(topic\(3\) = 'success' OR topic\(3\) = 'fail'\) AND devID = clientid\(\)$/,
    );
    const message = { action: 'fail', devID: 'AA:01', clientId: 'forged' };
    expect(confirmationRuleEvent('org-1/controldata/fail', message, 'AA:01', 42)).toEqual({
      action: 'fail',
      devID: 'AA:01',
      orgId: 'org-1',
      outcome: 'fail',
      clientId: 'AA:01',
      receivedAt: 42,
    });
    expect(confirmationRuleEvent('org-1/controldata/AA:01', message, 'AA:01', 42)).toBeUndefined();
    expect(
      confirmationRuleEvent('org-1/controldata/fail', { ...message, devID: 'AA:02' }, 'AA:01', 42),
    ).toBeUndefined();
  });
});
