/** A wrong command line or outputs file: the smoke CLI prints the message and its usage. */
export class UsageError extends Error {}

/** CDK's outputs file (`--outputs-file`): each stack's outputs by logical id. */
export type StackOutputs = Record<string, Record<string, string>>;

/** A stack output from CDK's outputs file: a stack-level output, or a construct's (its id ends in a hash). */
function output(outputs: StackOutputs, stack: string, name: string): string {
  const values = outputs[stack];
  if (!values) throw new UsageError(`The outputs file has no stack ${stack} (--prefix?).`);
  const pattern = new RegExp(`^\\w*?${name}(?:[0-9A-F]{8})?$`);
  const key = Object.keys(values).find((k) => k === name) ?? Object.keys(values).find((k) => pattern.test(k));
  const value = key && values[key];
  if (!value) throw new UsageError(`Stack ${stack} has no output ${name}: deploy the current version first.`);
  return value;
}

/**
 * What the smoke test reads of a deployment, each from the stack that outputs it: the stateless
 * stack's app, API and IoT endpoint; the stateful stack's tables and, with the telemetry rule, the
 * device policy (DeviceAccess, which outlives stateless deploys).
 */
export function deploymentOutputs(outputs: StackOutputs, prefix: string) {
  const stateless = `${prefix}Stateless`;
  const stateful = `${prefix}Stateful`;
  return {
    siteUrl: output(outputs, stateless, 'SiteUrl'),
    iotEndpoint: output(outputs, stateless, 'IotEndpoint'),
    platformTable: output(outputs, stateful, 'PlatformTableName'),
    telemetryTable: output(outputs, stateful, 'TelemetryTableName'),
    telemetryRuleName: output(outputs, stateful, 'TelemetryRuleName'),
    devicePolicyName: output(outputs, stateful, 'DevicePolicyName'),
  };
}
