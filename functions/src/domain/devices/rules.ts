import {
  DEVICE_NAME_EMPTY_TEXT,
  DEVICE_NAME_MAX_LENGTH,
  DEVICE_NAME_PATTERN,
  SPECIAL_CHARACTERS_TEXT,
} from '@argentum/contracts';
import { conflict, type DomainError, validationError } from '../errors';
import type { DataPoint, Device } from './device';
import { DEVICE_MESSAGES } from './texts';
import type { CommitOutcome } from './ports';
import { floorDeletePending } from './access';

/** A device or data-point name as stored: trimmed, letters, digits, '_' and '-' only. */
export function checkedName(value: string, emptyText = DEVICE_NAME_EMPTY_TEXT): string {
  const name = value.trim();
  if (name === '') throw validationError(emptyText);
  if (name.length > DEVICE_NAME_MAX_LENGTH || !DEVICE_NAME_PATTERN.test(name)) {
    throw validationError(SPECIAL_CHARACTERS_TEXT);
  }
  return name;
}

/** Data points as stored: their keys and names follow the name rule too. */
export function checkedDataPoints(dataPoints: readonly DataPoint[]): DataPoint[] {
  return dataPoints.map((p) => ({
    dp: checkedName(p.dp),
    ...(p.dn !== undefined ? { dn: checkedName(p.dn) } : {}),
    ...(p.val !== undefined ? { val: p.val } : {}),
    ...(p.readonly !== undefined ? { readonly: p.readonly } : {}),
  }));
}

/** Refuses when the client saw an older version of the device than the stored one. */
export function assertVersion(device: Device, expected: number | undefined): void {
  if (expected !== undefined && expected !== (device.version ?? 0)) {
    throw conflict(DEVICE_MESSAGES.changedMeanwhile);
  }
}

/** Thrown when a commit lost a race; the use case may run again on fresh reads. */
export class CommitRefused extends Error {
  constructor(readonly reason: Exclude<CommitOutcome, { outcome: 'written' }>['reason']) {
    super(reason);
  }
}

export function written(outcome: CommitOutcome): void {
  if (outcome.outcome === 'refused') throw new CommitRefused(outcome.reason);
}

/** What a lost race answers when it is not tried again. */
export function refusal(error: CommitRefused): DomainError {
  switch (error.reason) {
    case 'floor-gone':
      return floorDeletePending();
    case 'floor-changed':
      return conflict(DEVICE_MESSAGES.floorChangedMeanwhile);
    default:
      return conflict(DEVICE_MESSAGES.changedMeanwhile);
  }
}

/**
 * Runs a read-decide-commit use case, again on fresh reads when its commit lost a race (up to
 * `attempts` times): the rules are then decided on what the winner wrote (a version the client named
 * is then stale: 409). A floor whose delete was committed meanwhile is not tried again (410).
 */
export async function withRetries<T>(attempts: number, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof CommitRefused)) throw error;
      if (attempt >= attempts || error.reason === 'floor-gone') throw refusal(error);
    }
  }
}
