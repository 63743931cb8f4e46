import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { type PolicyValidationPluginReport } from 'aws-cdk-lib';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { AwsSolutionsChecks } from 'cdk-nag';
import { repoRoot } from '../../cdk/paths';
import { beforeAll, describe, expect, it } from 'vitest';
import { synthPlatform, type SynthesizedPlatform } from './synth';

/**
 * cdk-nag 3 (installed) is a CDK validation plugin: app.ts registers it with `Validations.of(app)`,
 * and findings are acknowledged with `Validations.of(construct).acknowledge()`, each with its reason.
 * Here the pack runs directly on the synthesized tree (`validateScope`) so failures list the findings.
 */
function findings(report: PolicyValidationPluginReport): string[] {
  return report.violations.flatMap((violation) =>
    violation.violatingResources.map(
      (resource) =>
        `${violation.severity} ${violation.ruleName} at ${resource.constructPath}: ${violation.description}`,
    ),
  );
}

const variants: { name: string; context: Record<string, string>; withSite: boolean }[] = [
  { name: 'default (DynamoDB telemetry, web app deployed)', context: {}, withSite: true },
  {
    name: 'Timestream telemetry, no web app build',
    context: { telemetryStore: 'timestream' },
    withSite: false,
  },
  {
    name: 'appOrigin and iotEndpoint given',
    context: { appOrigin: 'https://iot.example.com', iotEndpoint: 'abc-ats.iot.eu-west-1.amazonaws.com' },
    withSite: false,
  },
];

describe.each(variants)('cdk-nag AwsSolutions: $name', ({ context, withSite }) => {
  let platform: SynthesizedPlatform;
  beforeAll(() => {
    platform = synthPlatform({ context, withSite });
  });

  it('has no unacknowledged errors or warnings', () => {
    const report = new AwsSolutionsChecks(platform.app, { verbose: true }).validateScope(platform.app);
    expect(findings(report)).toEqual([]);
    expect(report.success).toBe(true);
  });

  it('leaves no AwsSolutions or CDK error annotations on any stack', () => {
    for (const stack of [platform.edge, platform.stateful, platform.stateless]) {
      const annotations = Annotations.fromStack(stack);
      expect(annotations.findError('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
      expect(annotations.findWarning('*', Match.stringLikeRegexp('AwsSolutions-.*'))).toEqual([]);
      expect(annotations.findError('*', Match.anyValue())).toEqual([]);
    }
  });

  it('acknowledges only rules the installed pack has, with reasons that name only files that exist', () => {
    // The rule ids of the AWS Solutions pack, as cdk-nag declares them.
    const pack = readFileSync(
      path.join(path.dirname(createRequire(import.meta.url).resolve('cdk-nag')), 'packs/aws-solutions.js'),
      'utf8',
    );
    const known = new Set([...pack.matchAll(/ruleSuffixOverride: *'([A-Z0-9]+)'/g)].map((match) => match[1]));
    expect(known.size).toBeGreaterThan(50);
    const entries = [platform.edge, platform.stateful, platform.stateless].flatMap((stack) =>
      stack.node
        .findAll()
        .flatMap((construct) => construct.node.metadata)
        .filter((entry) => entry.type === 'aws:cdk:acknowledged-rules')
        .flatMap((entry) => Object.entries(entry.data as Record<string, string>)),
    );
    for (const [id, reason] of entries) {
      const rule = /^AwsSolutions-([A-Z0-9]+)/.exec(id)?.[1];
      if (rule) expect(known.has(rule), id).toBe(true);
      for (const file of reason.match(/[\w./-]+\.md\b/g) ?? []) {
        expect(existsSync(path.join(repoRoot, file)), `${id}: ${file}`).toBe(true);
      }
    }
  });

  it('gives every acknowledgement a specific reason', () => {
    const reasons = [platform.edge, platform.stateful, platform.stateless].flatMap((stack) =>
      stack.node
        .findAll()
        .flatMap((construct) => construct.node.metadata)
        .filter((entry) => entry.type === 'aws:cdk:acknowledged-rules')
        .flatMap((entry) => Object.values(entry.data as Record<string, string>)),
    );
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason.length).toBeGreaterThan(40);
  });
});
