import { describe, expect, it } from 'vitest';
import { matchesFilter } from '../../local/event-filter';
import { treeSweeps } from '../../src/definitions';

/** The local stream runner decides, as Lambda's event filtering does, which records reach the sweeper. */

const record = (eventName: string, newImage?: Record<string, unknown>) => ({
  eventName,
  eventSource: 'aws:dynamodb',
  dynamodb: { Keys: { pk: { S: 'ORG#o' }, sk: { S: 'ORG' } }, ...(newImage ? { NewImage: newImage } : {}) },
});

const tombstone = (entity: string) => ({
  entity: { S: entity },
  orgId: { S: 'o' },
  deletedAt: { S: '2026-01-01T00:00:00.000Z' },
  version: { N: '3' },
});

describe('the tree sweeper filter', () => {
  it('lets committed deletes of organizations, buildings and floors through', () => {
    for (const entity of ['org', 'building', 'floor']) {
      expect(matchesFilter(treeSweeps.filter, record('MODIFY', tombstone(entity))), entity).toBe(true);
      expect(matchesFilter(treeSweeps.filter, record('INSERT', tombstone(entity))), entity).toBe(true);
    }
  });

  it('keeps everything else back', () => {
    const live = { entity: { S: 'org' }, orgId: { S: 'o' }, version: { N: '1' } };
    expect(matchesFilter(treeSweeps.filter, record('MODIFY', live))).toBe(false);
    expect(matchesFilter(treeSweeps.filter, record('INSERT', live))).toBe(false);
    // The sweep's own removals, and other entities that happen to carry the attribute.
    expect(matchesFilter(treeSweeps.filter, record('REMOVE'))).toBe(false);
    expect(matchesFilter(treeSweeps.filter, record('MODIFY', tombstone('user')))).toBe(false);
    expect(matchesFilter(treeSweeps.filter, record('MODIFY', tombstone('device')))).toBe(false);
    // `exists` matches a value, not a map of the same name.
    const nested = { ...live, deletedAt: { M: { at: { S: 'x' } } } };
    expect(matchesFilter(treeSweeps.filter, record('MODIFY', nested))).toBe(false);
  });

  it('refuses rules it cannot honour instead of letting records through', () => {
    expect(() => matchesFilter({ a: [{ numeric: ['>', 1] } as never] }, { a: 2 })).toThrow(
      /Unsupported filter rule/,
    );
  });
});
