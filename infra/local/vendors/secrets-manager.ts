import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { json, parse } from './http';

/** AWS Secrets Manager (JSON 1.1 protocol): GetSecretValue and PutSecretValue, in memory. */
export function secretsManagerStandin(initial: Record<string, string>) {
  const secrets = new Map<string, { value: string; versionId: string }>(
    Object.entries(initial).map(([name, value]) => [name, { value, versionId: randomUUID() }]),
  );

  // AWS Secrets Manager (JSON 1.1 protocol).
  function secretsManager(target: string, body: Buffer, response: ServerResponse) {
    const input = (parse(body) ?? {}) as { SecretId?: string; SecretString?: string };
    const awsError = (type: string, message: string) =>
      json(
        response,
        400,
        { __type: type, message },
        { 'x-amzn-errortype': type, 'content-type': 'application/x-amz-json-1.1' },
      );
    const name = input.SecretId ?? '';
    const arn = `arn:aws:secretsmanager:us-east-1:000000000000:secret:${name}-local`;
    const secret = secrets.get(name);
    if (target === 'secretsmanager.GetSecretValue') {
      if (!secret)
        return awsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      return json(response, 200, {
        ARN: arn,
        Name: name,
        SecretString: secret.value,
        VersionId: secret.versionId,
        VersionStages: ['AWSCURRENT'],
        CreatedDate: Date.now() / 1000,
      });
    }
    if (target === 'secretsmanager.PutSecretValue') {
      if (!secret)
        return awsError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
      if (typeof input.SecretString !== 'string')
        return awsError('InvalidParameterException', 'SecretString is required.');
      const versionId = randomUUID();
      secrets.set(name, { value: input.SecretString, versionId });
      return json(response, 200, {
        ARN: arn,
        Name: name,
        VersionId: versionId,
        VersionStages: ['AWSCURRENT'],
      });
    }
    return awsError('InvalidRequestException', `${target} is not supported here.`);
  }

  return { handle: secretsManager };
}
