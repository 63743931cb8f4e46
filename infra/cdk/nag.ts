import { Aspects, Stack, Validations } from 'aws-cdk-lib';
import { CfnPolicy, type PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { type IConstruct } from 'constructs';

/**
 * cdk-nag v3 findings are acknowledged with CDK's own `Validations.of(...).acknowledge()`, one
 * finding at a time (no prefix or regex matching). These helpers keep every acknowledgement next to
 * the resource it concerns, each with its reason.
 */
export function acknowledgeRule(scope: IConstruct, rule: string, reason: string): void {
  Validations.of(scope).acknowledge({ id: `AwsSolutions-${rule}`, reason });
}

/**
 * Acknowledges the IAM5 (wildcard) findings one policy statement produces, computing the finding ids
 * exactly as cdk-nag does, so a reason is given for each wildcard a grant needs and nothing else.
 */
export function acknowledgeWildcards(scope: IConstruct, statement: PolicyStatement, reason: string): void {
  for (const finding of wildcardFindings(Stack.of(scope).resolve(statement.toStatementJson()))) {
    acknowledgeRule(scope, `IAM5[${finding}]`, reason);
  }
}

/**
 * For policies that CDK constructs generate (deployment helpers): acknowledges each wildcard of the
 * policies under `scope`, computed from the policy documents at synthesis.
 */
export function acknowledgePolicyWildcardsAtSynth(scope: IConstruct, reason: string): void {
  Aspects.of(scope).add({
    visit(node) {
      if (!(node instanceof CfnPolicy)) return;
      const document = Stack.of(node).resolve(node.policyDocument) as { Statement?: unknown[] };
      for (const statement of document.Statement ?? []) {
        for (const finding of wildcardFindings(statement)) acknowledgeRule(node, `IAM5[${finding}]`, reason);
      }
    },
  });
}

function wildcardFindings(resolvedStatement: unknown): string[] {
  const json = resolvedStatement as { Effect?: string; Action?: unknown; Resource?: unknown };
  if (json.Effect !== undefined && json.Effect !== 'Allow') return [];
  return [
    ...asArray(json.Action)
      .map(flattenReference)
      .filter((action) => action.includes('*'))
      .map((action) => `Action::${action}`),
    ...asArray(json.Resource)
      .map(flattenReference)
      .filter((resource) => resource.includes('*'))
      .map((resource) => `Resource::${resource}`),
  ];
}

const asArray = (value: unknown): unknown[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];

/** A resolved CloudFormation value as cdk-nag prints it: `<Logical.Attr>`, `<AWS::Region>`, import names. */
export function flattenReference(node: unknown): string {
  if (node === undefined) return '';
  if (typeof node === 'string') return node.replace(/\$\{/g, '<').replace(/\}/g, '>');
  if (typeof node === 'object' && node !== null) {
    const record = node as Record<string, unknown>;
    const join = record['Fn::Join'];
    if (Array.isArray(join)) {
      const [delimiter, items] = join as [string, unknown[]];
      return items.map(flattenReference).join(delimiter);
    }
    if (record['Fn::Sub']) return flattenReference(record['Fn::Sub']);
    const getAtt = record['Fn::GetAtt'];
    if (Array.isArray(getAtt)) return `<${flattenReference(getAtt[0])}.${flattenReference(getAtt[1])}>`;
    if (record['Fn::ImportValue']) return flattenReference(record['Fn::ImportValue']);
    if (record.Ref) return `<${flattenReference(record.Ref)}>`;
  }
  return JSON.stringify(node);
}
