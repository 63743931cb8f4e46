import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { ApiResponse } from '@argentum/functions/http/types';
import type { FunctionName } from '../src/function-access';
import { asFunction } from './function-grants';

/**
 * How the local stack invokes a function as Lambda does: with a context whose remaining time counts
 * down from the function's timeout, and an end at that timeout. Unlike Lambda, the twin cannot stop a
 * timed-out invocation's work in this process; what it writes late meets the same checks as any
 * other write.
 */

export interface Invocation {
  /** The function's name (its log group, ARN and context name it; it runs with its table access). */
  name: FunctionName;
  /** The function's timeout, as deployed (infra/src/definitions.ts). */
  timeoutMs: number;
  memoryMB?: number;
  requestId?: string;
}

/** A Lambda context whose `getRemainingTimeInMillis` counts down from `timeoutMs`, from now. */
export function lambdaContext({ name, timeoutMs, memoryMB = 512, requestId }: Invocation): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: name,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${name}`,
    memoryLimitInMB: String(memoryMB),
    awsRequestId: requestId ?? randomUUID(),
    logGroupName: `/aws/lambda/${name}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** An invocation that outlived its function's timeout ("Task timed out after 10.00 seconds"). */
export class TimedOut extends Error {
  constructor(timeoutMs: number) {
    super(`Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds`);
    this.name = 'TimedOut';
  }
}

/** `work`, or a TimedOut rejection once `timeoutMs` have passed. */
export async function withinTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(timeoutMs)), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Invokes `handler` as Lambda does: as its function (its table access), with a context that counts
 * down, ending at its timeout.
 */
export function invoke<E, R>(
  handler: (event: E, context: Context) => Promise<R>,
  event: E,
  invocation: Invocation,
): Promise<R> {
  const run = asFunction(invocation.name, () => handler(event, lambdaContext(invocation)));
  return withinTimeout(run, invocation.timeoutMs);
}

const INTERNAL_SERVER_ERROR: ApiResponse = {
  statusCode: 500,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ message: 'Internal Server Error' }),
};

/**
 * An API route's function invoked behind API Gateway: an invocation that times out or throws fails,
 * and API Gateway answers it with a 500 (the function's log says why).
 */
export async function invokeApiFunction<E>(
  handler: (event: E, context: Context) => Promise<ApiResponse>,
  event: E,
  invocation: Invocation,
): Promise<ApiResponse> {
  try {
    return await invoke(handler, event, invocation);
  } catch (error) {
    console.error(`${invocation.name}:`, error instanceof TimedOut ? error.message : error);
    return INTERNAL_SERVER_ERROR;
  }
}
