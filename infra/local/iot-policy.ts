import { AUTHORIZER_POLICY_LIMITS } from '@argentum/functions/domain/realtime/policy';

/**
 * IoT Core's evaluation of the policy documents a custom authorizer answers, for the local broker:
 * at most 10 documents of at most 2,048 characters (else the connection is refused), statements with
 * `Allow`/`Deny` on `iot:Connect`, `iot:Subscribe`, `iot:Receive`, `iot:Publish` (or `iot:*`), and
 * resources `arn:aws:iot:{region}:{account}:client/{id}`, `topic/{topic}`, `topicfilter/{filter}`. In a
 * resource `*` matches any characters and `?` one; MQTT's `+` and `#` are literal characters (a
 * subscription to `org/#` needs a resource matching `topicfilter/org/#`). An explicit Deny wins; what no
 * statement allows is denied.
 */
export type IotAction = 'iot:Connect' | 'iot:Subscribe' | 'iot:Receive' | 'iot:Publish';

interface Statement {
  effect: 'Allow' | 'Deny';
  actions: RegExp[];
  resources: RegExp[];
}

export interface IotPolicy {
  allows(action: IotAction, resource: string): boolean;
}

/** An IoT policy pattern (`*`, `?`) as a whole-string regular expression. */
const pattern = (value: string) =>
  new RegExp(
    `^${value
      .replace(/[.+^${}()|[\]\\#/]/g, '\\$&')
      .replace(/\*/g, '.*')
      .replace(/\?/g, '.')}$`,
  );

const list = (value: unknown): string[] | undefined =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value) && value.every((v) => typeof v === 'string')
      ? (value as string[])
      : undefined;

/** The policy of an authorizer's answer, or the reason IoT Core would refuse the connection. */
export function parseAuthorizerPolicy(documents: unknown): IotPolicy | { refused: string } {
  const { maxDocuments, maxDocumentChars } = AUTHORIZER_POLICY_LIMITS;
  if (!Array.isArray(documents) || documents.length === 0) return { refused: 'no policy documents' };
  if (documents.length > maxDocuments) return { refused: `more than ${maxDocuments} policy documents` };
  const statements: Statement[] = [];
  for (const document of documents) {
    if (typeof document !== 'string') return { refused: 'a policy document is not a string' };
    if (document.length > maxDocumentChars)
      return { refused: `a policy document is longer than ${maxDocumentChars} characters` };
    let parsed: unknown;
    try {
      parsed = JSON.parse(document);
    } catch {
      return { refused: 'a policy document is not JSON' };
    }
    const raw = (parsed as { Statement?: unknown }).Statement;
    for (const statement of Array.isArray(raw) ? raw : [raw]) {
      const { Effect, Action, Resource } = (statement ?? {}) as Record<string, unknown>;
      const actions = list(Action);
      const resources = list(Resource);
      if ((Effect !== 'Allow' && Effect !== 'Deny') || !actions || !resources)
        return { refused: 'a policy statement is malformed' };
      statements.push({ effect: Effect, actions: actions.map(pattern), resources: resources.map(pattern) });
    }
  }
  const matching = (action: string, resource: string) =>
    statements.filter(
      (s) => s.actions.some((a) => a.test(action)) && s.resources.some((r) => r.test(resource)),
    );
  return {
    allows(action, resource) {
      const found = matching(action, resource);
      return found.some((s) => s.effect === 'Allow') && !found.some((s) => s.effect === 'Deny');
    },
  };
}

/** The ARN the broker checks a request against (region and account are the local stack's). */
export const localIotArn = (kind: 'client' | 'topic' | 'topicfilter', resource: string) =>
  `arn:aws:iot:${process.env.AWS_REGION ?? 'us-east-1'}:${process.env.AWS_ACCOUNT_ID ?? '000000000000'}:${kind}/${resource}`;

/** IoT Core's largest message (payload): 128 KB. */
export const IOT_MAX_MESSAGE_BYTES = 128 * 1024;
