import type { Context } from 'aws-lambda';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiDomains } from '@argentum/functions/http/types';
import { API_INIT_ALLOWANCE_SECONDS, apiFunction, functionDefaults } from '../../src/definitions';
import { invoke, invokeApiFunction, TimedOut } from '../../local/lambda-invoke';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const ok = { statusCode: 200, body: '{}' };

describe('local Lambda invocations', () => {
  afterEach(() => vi.restoreAllMocks());

  it("give the handler a context whose remaining time counts down from the function's timeout", async () => {
    const remaining = await invoke(
      async (_event: unknown, context: Context) => {
        const first = context.getRemainingTimeInMillis();
        await sleep(300);
        return [first, context.getRemainingTimeInMillis()];
      },
      {},
      { name: 'api-tree', timeoutMs: 2_000 },
    );
    expect(remaining[0]).toBeLessThanOrEqual(2_000);
    expect(remaining[0]).toBeGreaterThan(1_700);
    expect(remaining[1]).toBeLessThanOrEqual((remaining[0] ?? 0) - 250);
  });

  it('end at the timeout: an API function that outlives it is answered 500, and its log says why', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const started = Date.now();
    const answer = await invokeApiFunction(
      async () => {
        await sleep(5_000);
        return ok;
      },
      {},
      { name: 'api-data', timeoutMs: 200 },
    );
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body ?? '')).toEqual({ message: 'Internal Server Error' });
    expect(log).toHaveBeenCalledWith('api-data:', 'Task timed out after 0.20 seconds');
  });

  it('answer 500 for a function that throws, and its own answer for one within its time', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failed = await invokeApiFunction(
      () => Promise.reject(new Error('boom')),
      {},
      { name: 'api-tree', timeoutMs: 1_000 },
    );
    expect(failed.statusCode).toBe(500);
    const answered = await invokeApiFunction(async () => ok, {}, { name: 'api-tree', timeoutMs: 1_000 });
    expect(answered).toEqual(ok);
    await expect(invoke(() => sleep(1_000), {}, { name: 'api-tree', timeoutMs: 50 })).rejects.toBeInstanceOf(
      TimedOut,
    );
  });

  it('time each API function as deployed, within the 30 s API Gateway waits, a cold start included', () => {
    for (const domain of apiDomains) {
      expect(apiFunction(domain).timeoutSeconds + API_INIT_ALLOWANCE_SECONDS).toBeLessThanOrEqual(30);
    }
    expect(apiFunction('tree').timeoutSeconds).toBe(functionDefaults.timeoutSeconds);
    expect(apiFunction('floorplans').timeoutSeconds).toBe(25);
  });
});
