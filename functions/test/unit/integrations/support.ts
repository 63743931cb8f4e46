import type { Fetch } from '../../../src/adapters/vendors/http';
import type { SecretStore } from '../../../src/domain/integrations/ports';
import type { Clock, Logger } from '../../../src/domain/ports';

/** A request as the vendor would receive it. */
export interface Recorded {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Whether the request carried an abort signal (the hard timeout). */
  bounded: boolean;
}

type Reply = Response | 'hang' | 'network-error';

/**
 * Stands in for the vendor's cloud: records every request and answers the scripted replies in order
 * ('hang' never answers but honours the abort signal, as a socket would).
 */
export function scriptedFetch(...replies: Reply[]): { fetch: Fetch; requests: Recorded[] } {
  const requests: Recorded[] = [];
  const fetch: Fetch = async (input, init) => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    requests.push({
      method: init.method ?? 'GET',
      url: input,
      headers,
      body: typeof init.body === 'string' ? init.body : undefined,
      bounded: init.signal instanceof AbortSignal,
    });
    const reply = replies.shift();
    if (!reply) throw new Error(`Unexpected request ${init.method ?? 'GET'} ${input}`);
    if (reply === 'network-error') throw new TypeError('fetch failed');
    if (reply === 'hang') {
      return new Promise<Response>((_, reject) => {
        const signal = init.signal;
        if (!signal) return;
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    }
    return reply;
  };
  return { fetch, requests };
}

export const jsonReply = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Secrets Manager as the adapters see it: values by id, every write kept. */
export function memorySecrets(initial: Record<string, unknown>) {
  const values = new Map(Object.entries(initial).map(([id, value]) => [id, JSON.stringify(value)]));
  const writes: { id: string; value: unknown }[] = [];
  const reads: { id: string; fresh: boolean }[] = [];
  const store: SecretStore = {
    read(id, options) {
      reads.push({ id, fresh: options?.fresh ?? false });
      return Promise.resolve(values.get(id) ?? '');
    },
    write(id, value) {
      writes.push({ id, value: JSON.parse(value) as unknown });
      values.set(id, value);
      return Promise.resolve();
    },
  };
  return { store, writes, reads, value: (id: string) => JSON.parse(values.get(id) ?? 'null') as unknown };
}

export function fixedClock(
  start = Date.parse('2026-11-22T12:00:00Z'),
): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => new Date(now), advance: (ms) => (now += ms) };
}

export const silentLogger = (): Logger & { lines: string[] } => {
  const lines: string[] = [];
  return { lines, log: (_level, message) => lines.push(message) };
};
