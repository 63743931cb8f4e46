import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../aws/clients';
import { config } from '../config';
import type { Building, Floor, Organization } from '../domain/tree/tree';
import { mapLimited } from './concurrency';
import { keys } from './keys';

export interface OrganizationTree {
  org: Organization;
  buildings: Building[];
  floors: Floor[];
}

export const orgItem = (org: Organization) => ({
  ...keys.org(org.orgId),
  ...keys.node(org.orgId, 'ORG'),
  entity: 'org',
  ...org,
});

export const buildingItem = (building: Building) => ({
  ...keys.building(building.orgId, building.buildId),
  ...keys.node(building.buildId, 'BUILDING'),
  entity: 'building',
  ...building,
});

export const floorItem = (floor: Floor) => ({
  ...keys.floor(floor.orgId, floor.buildId, floor.floorId),
  ...keys.node(floor.floorId, 'FLOOR'),
  entity: 'floor',
  ...floor,
});

/** Reads one organization's whole tree: a single partition, so one (paged) query. */
export async function getOrganizationTree(orgId: string): Promise<OrganizationTree | undefined> {
  const items: Record<string, unknown>[] = [];
  let startKey: QueryCommandOutput['LastEvaluatedKey'];
  do {
    const page = await dynamo().send(
      new QueryCommand({
        TableName: config.platformTable,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': keys.orgPartition(orgId) },
        ExclusiveStartKey: startKey,
      }),
    );
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const orgRow = items.find((i) => i.entity === 'org');
  if (!orgRow) return undefined;
  return {
    org: { orgId: String(orgRow.orgId), orgName: String(orgRow.orgName) },
    buildings: items
      .filter((i) => i.entity === 'building')
      .map((i) => ({ orgId, buildId: String(i.buildId), buildName: String(i.buildName) })),
    floors: items
      .filter((i) => i.entity === 'floor')
      .map((i) => ({
        orgId,
        buildId: String(i.buildId),
        floorId: String(i.floorId),
        floorName: String(i.floorName),
        floorDevTypes: Array.isArray(i.floorDevTypes) ? i.floorDevTypes.map(Number) : [],
        editMode: i.editMode === true,
      })),
  };
}

/** Reads the trees of many organizations in parallel; organizations that no longer exist are skipped. */
export async function getOrganizationTrees(orgIds: readonly string[]): Promise<OrganizationTree[]> {
  const trees = await mapLimited([...new Set(orgIds)], 16, getOrganizationTree);
  return trees.filter((t): t is OrganizationTree => t !== undefined);
}
