import { AsyncLocalStorage } from 'node:async_hooks';
import type { IntegrationVendor } from '@argentum/contracts';
import { vendorError } from '../../domain/integrations/errors';

/** The fetch the adapters use: the global one in production, a recording one in contract tests. */
export type Fetch = (input: string, init: RequestInit) => Promise<Response>;

/** Every vendor request ends within this (ms) unless configured otherwise. */
export const DEFAULT_VENDOR_TIMEOUT_MS = 5000;

export interface VendorHttp {
  vendor: IntegrationVendor;
  fetch: Fetch;
  /** Hard limit of one request, body included. */
  timeoutMs: number;
}

/** The end (epoch ms) of the API call being served: no vendor request may outlast it. */
const callDeadline = new AsyncLocalStorage<number>();

/**
 * Runs `work` (one API call) with every vendor request it makes ending by `deadline` at the latest:
 * a call that needs several requests (token refresh, retry, read before write) still answers before
 * its Lambda times out.
 */
export function withVendorDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  return callDeadline.run(deadline, work);
}

export interface VendorResponse {
  status: number;
  /** The parsed JSON body; undefined when the body is empty or not JSON. */
  json: unknown;
}

/**
 * One request to a vendor, bounded by a hard timeout that covers the body too (and by the call's
 * deadline, when one is set): a vendor that does not answer in time is a 'timeout', one that cannot be
 * reached is 'unavailable'. Statuses are the caller's to judge.
 */
export async function vendorRequest(
  http: VendorHttp,
  url: string,
  init: RequestInit,
): Promise<VendorResponse> {
  const deadline = callDeadline.getStore();
  const left = deadline === undefined ? http.timeoutMs : Math.max(1, deadline - Date.now());
  const signal = AbortSignal.timeout(Math.min(http.timeoutMs, left));
  try {
    const response = await http.fetch(url, { ...init, signal });
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, json };
  } catch (error) {
    if (signal.aborted || (error instanceof Error && error.name === 'TimeoutError')) {
      throw vendorError(http.vendor, 'timeout');
    }
    throw vendorError(http.vendor, 'unavailable');
  }
}

/** A failure status no use case can do anything about: the vendor is down, overloaded or broken. */
export const isVendorOutage = (status: number) => status >= 500 || status === 429;

/** Reads a number that may be missing. */
export const numberOrNull = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
