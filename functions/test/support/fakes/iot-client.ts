import type { IoTClient } from '@aws-sdk/client-iot';

/** One answer of the fake IoT client: the command's output, or the error it throws. */
export type IotAnswer = Record<string, unknown> | Error;

/**
 * A fake of the IoT control-plane client's `send` (a third-party API: its answers are recorded shapes):
 * records each request and gives the next answer queued for its command; an unexpected command fails.
 */
export function fakeIot(answers: Record<string, IotAnswer[]>) {
  const requests: { command: string; input: unknown }[] = [];
  const send = (command: { constructor: { name: string }; input: unknown }) => {
    const name = command.constructor.name;
    requests.push({ command: name, input: command.input });
    const answer = answers[name]?.shift();
    if (!answer) return Promise.reject(new Error(`unexpected ${name}`));
    return answer instanceof Error ? Promise.reject(answer) : Promise.resolve({ $metadata: {}, ...answer });
  };
  return { client: { send } as unknown as Pick<IoTClient, 'send'>, requests };
}
