import { topics } from '@argentum/contracts/messaging';

/**
 * IoT Core's limits on what a custom authorizer answers (developer guide, "Defining your Lambda
 * function"): at most 10 policy documents, each of at most 2,048 characters. A larger answer refuses the
 * connection, so the policy is split into documents and a connection names few organizations
 * (REALTIME_MAX_ORGS): its size never grows with the number of organizations a user has.
 */
export const AUTHORIZER_POLICY_LIMITS = { maxDocuments: 10, maxDocumentChars: 2048 } as const;

/**
 * IoT Core's limits on the rest of the authorizer's answer (same page): `principalId` is 1 to 128
 * letters and digits, `refreshAfterInSeconds` and `disconnectAfterInSeconds` are 300 to 86,400; and the
 * function has 5 s to answer ("Creating and managing custom authorizers": "The custom authorizer's
 * Lambda function timeout limit is 5 seconds"). An answer outside them fails the connection.
 */
export const AUTHORIZER_ANSWER_LIMITS = {
  principalId: /^[a-zA-Z0-9]{1,128}$/,
  minSeconds: 300,
  maxSeconds: 86_400,
  timeoutSeconds: 5,
} as const;

/** The ARN of an IoT resource: `client/{id}`, `topic/{topic}` or `topicfilter/{filter}`. */
export type IotArn = (kind: 'client' | 'topic' | 'topicfilter', resource: string) => string;

interface Statement {
  Effect: 'Allow';
  Action: string;
  Resource: string | string[];
}

const documentOf = (statements: Statement[]) =>
  JSON.stringify({ Version: '2012-10-17', Statement: statements });

/**
 * What a page may subscribe to and receive in one organization, as IoT policy patterns (`*` matches
 * any characters; MQTT's `+` and `#` are literal): the live values of its floors, the outcomes of the
 * user's own commands and the organization's notifications (frontend: `app/realtimeFeeds.ts`). Never
 * devices' own words (`sensordata/...`, `controldata/...`), nor another user's command outcomes.
 */
export const pageTopics = (orgId: string, userId: string): string[] => [
  topics.floorLive(orgId, '*'),
  topics.commandStatus(orgId, userId),
  topics.notification(orgId),
];

/**
 * The policy of a browser connection, in as few documents as fit: connect under its own client id only;
 * subscribe to (topic filters) and receive (topics) `pageTopics` of each granted organization, nothing
 * else. Each organization's resources stay in one document. Undefined when it would not fit IoT Core's
 * limits (an organization id far longer than any the platform makes), or for a user id that is not one
 * plain topic level (Cognito's are UUIDs).
 */
export function realtimePolicyDocuments(
  arn: IotArn,
  clientId: string,
  userId: string,
  orgIds: readonly string[],
): string[] | undefined {
  const { maxDocuments, maxDocumentChars } = AUTHORIZER_POLICY_LIMITS;
  // A user id is one topic level with no policy wildcard, or its grant would reach other users' topics.
  if (userId === '' || /[/+#*?]/.test(userId)) return undefined;
  const connect: Statement = { Effect: 'Allow', Action: 'iot:Connect', Resource: arn('client', clientId) };
  const build = (first: boolean, orgs: readonly string[]) => {
    const granted = orgs.flatMap((orgId) => pageTopics(orgId, userId));
    return documentOf([
      ...(first ? [connect] : []),
      ...(granted.length > 0
        ? [
            {
              Effect: 'Allow' as const,
              Action: 'iot:Subscribe',
              Resource: granted.map((topic) => arn('topicfilter', topic)),
            },
            {
              Effect: 'Allow' as const,
              Action: 'iot:Receive',
              Resource: granted.map((topic) => arn('topic', topic)),
            },
          ]
        : []),
    ]);
  };
  const documents: string[] = [];
  let current: string[] = [];
  for (const orgId of orgIds) {
    if (build(documents.length === 0, [...current, orgId]).length <= maxDocumentChars) {
      current.push(orgId);
      continue;
    }
    if (current.length === 0) return undefined;
    documents.push(build(documents.length === 0, current));
    current = [orgId];
    if (build(false, current).length > maxDocumentChars) return undefined;
  }
  documents.push(build(documents.length === 0, current));
  return documents.length <= maxDocuments ? documents : undefined;
}
