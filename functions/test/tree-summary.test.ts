import { randomBytes, randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { dynamo } from '../src/aws/dynamo';
import { config } from '../src/config';
import type { OrganizationTree } from '../src/domain/tree/ports';
import { finishDelete, sweepDeleted } from '../src/domain/tree/sweep';
import { toOrganizationView, type TreeNode } from '../src/domain/tree/tree';
import { sweepPorts } from '../src/lambda/wiring/sweep';
import { commitDevices } from '../src/stores/devices';
import { keys } from '../src/stores/keys';
import { packedView, storedSummary, SUMMARY_LIMIT_BYTES } from '../src/stores/tree-summary';
import {
  buildingItem,
  createBuilding,
  createFloor,
  createOrganization,
  findNode,
  floorItem,
  markDeleted,
  orgItem,
  readOrganizationTree,
  readOrganizationTrees,
  readOrganizationViews,
  updateNode,
} from '../src/stores/tree';
import { createUser } from './support/api';

/**
 * The tree summaries (stores/tree-summary.ts) on DynamoDB Local: the sidebar reads them instead of
 * one query per organization, so every tree write keeps them right, concurrent ones included.
 */

const now = () => new Date().toISOString();

/** The store requests made through the functions' DynamoDB client while `work` runs. */
async function storeRequests<T>(work: () => Promise<T>): Promise<{ result: T; requests: string[] }> {
  const requests: string[] = [];
  const name = `count-${randomUUID()}`;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      requests.push(context.commandName ?? 'unknown');
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await work(), requests };
  } finally {
    dynamo().middlewareStack.remove(name);
  }
}

/** A tree in a comparable order. */
const sorted = (tree: OrganizationTree | undefined) =>
  tree && {
    org: tree.org,
    buildings: [...tree.buildings].sort((a, b) => a.buildId.localeCompare(b.buildId)),
    floors: [...tree.floors].sort((a, b) => a.floorId.localeCompare(b.floorId)),
  };

/**
 * What the sidebar reads (the summary) is what the organization's partition holds: the tree writers
 * read, and the view's JSON text the sidebar splices into its answer.
 */
async function expectSummaryRight(orgId: string) {
  const [{ trees }, views, { tree }] = await Promise.all([
    readOrganizationTrees([orgId]),
    readOrganizationViews([orgId]),
    readOrganizationTree(orgId, { consistent: true }),
  ]);
  expect(sorted(trees[0])).toEqual(sorted(tree));
  expect(views.map((v) => ({ orgName: v.orgName, view: JSON.parse(v.view.text) as unknown }))).toEqual(
    tree
      ? [{ orgName: tree.org.orgName, view: toOrganizationView(tree.org, tree.buildings, tree.floors) }]
      : [],
  );
  return tree;
}

const summaryTreeOf = (item: Record<string, unknown> | undefined) => {
  const summary = storedSummary(item);
  if (summary.state !== 'complete') throw new Error(`summary ${summary.state}`);
  return summary.tree;
};

const summaryOf = async (orgId: string) =>
  (
    await dynamo().send(
      new GetCommand({ TableName: config.platformTable, Key: keys.orgSummary(orgId), ConsistentRead: true }),
    )
  ).Item;

/** A new organization, created by a new admin, with `buildings` buildings of `floors` floors. */
async function organization(buildings = 1, floors = 1, creator?: { userId: string }) {
  creator ??= await createUser(2, []);
  const org = { orgId: randomUUID(), orgName: 'Summary Co', version: 0 };
  expect(await createOrganization(org, { userId: creator.userId, role: 2 }, now())).toBe('created');
  const buildIds: string[] = [];
  const floorIds: string[] = [];
  for (let b = 0; b < buildings; b++) {
    const buildId = randomUUID();
    buildIds.push(buildId);
    await createBuilding({ orgId: org.orgId, buildId, buildName: `B${b}`, version: 0 }, now());
    for (let f = 0; f < floors; f++) {
      const floorId = randomUUID();
      floorIds.push(floorId);
      await createFloor(
        {
          orgId: org.orgId,
          buildId,
          floorId,
          floorName: `F${f}`,
          floorDevTypes: [1],
          editMode: false,
          version: 0,
        },
        now(),
      );
    }
  }
  return { org, buildIds, floorIds, creator };
}

const node = async (nodeId: string) => (await findNode(nodeId)) as TreeNode;

describe('tree summaries', () => {
  it('reads the trees of 150 organizations in two requests, not one per organization', async () => {
    const creator = await createUser(2, []);
    const orgs: Awaited<ReturnType<typeof organization>>[] = [];
    for (let i = 0; i < 150; i++) orgs.push(await organization(0, 0, creator));
    const { result, requests } = await storeRequests(() =>
      readOrganizationTrees(orgs.map((o) => o.org.orgId)),
    );
    expect(result.trees).toHaveLength(150);
    expect(requests).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
  });

  it('keeps the summary right through every kind of tree write and device commit', async () => {
    const { org, buildIds, floorIds } = await organization(2, 2);
    const [b0, b1] = buildIds as [string, string];
    const [f0, , f2] = floorIds as [string, string, string, string];
    let tree = await expectSummaryRight(org.orgId);
    expect(tree?.floors).toHaveLength(4);

    await updateNode(await node(org.orgId), { name: 'Renamed Co' }, 0, now());
    await updateNode(await node(b0), { name: 'Tower' }, undefined, now());
    await updateNode(await node(f0), { name: 'Lobby', floorDevTypes: [2, 7] }, 0, now());
    tree = await expectSummaryRight(org.orgId);
    expect(tree?.org).toEqual({ orgId: org.orgId, orgName: 'Renamed Co', version: 1 });
    expect(tree?.floors.find((f) => f.floorId === f0)).toMatchObject({
      floorName: 'Lobby',
      floorDevTypes: [2, 7],
      version: 1,
    });

    // A device commit changes a floor's device types.
    const floor = await node(f2);
    expect(
      await commitDevices({
        devices: [],
        floors: [{ floor, expectedDevicesVersion: 0, floorDevTypes: [4] }],
        groups: [],
        live: [],
        now: now(),
      }),
    ).toEqual({ outcome: 'written' });
    tree = await expectSummaryRight(org.orgId);
    expect(tree?.floors.find((f) => f.floorId === f2)?.floorDevTypes).toEqual([4]);

    // Deletes: a floor, then a building with its floors, then the sweeps (run here and by the stack).
    await markDeleted(await node(f0), undefined, now());
    await expectSummaryRight(org.orgId);
    const building = await node(b1);
    await markDeleted(building, undefined, now());
    tree = await expectSummaryRight(org.orgId);
    expect(tree?.buildings.map((b) => b.buildId)).toEqual([b0]);
    expect(await sweepDeleted(sweepPorts(), { ...building, version: 1, deletedAt: now() })).toBe(true);
    await expectSummaryRight(org.orgId);
    // The deleted building's floors left the summary with it.
    expect(Object.keys(summaryTreeOf(await summaryOf(org.orgId)).f)).toHaveLength(1);
  });

  it('two admins editing one organization at once: every write lands in the summary', async () => {
    const { org, buildIds } = await organization(1, 0);
    const [b0] = buildIds as [string];
    const creates = Array.from({ length: 12 }, (_, i) =>
      i % 2 === 0
        ? createBuilding(
            { orgId: org.orgId, buildId: randomUUID(), buildName: `Wing ${i}`, version: 0 },
            now(),
          )
        : createFloor(
            {
              orgId: org.orgId,
              buildId: b0,
              floorId: randomUUID(),
              floorName: `Level ${i}`,
              floorDevTypes: [],
              editMode: false,
              version: 0,
            },
            now(),
          ),
    );
    const renames = Array.from({ length: 6 }, async (_, i) =>
      updateNode(await node(i % 2 === 0 ? org.orgId : b0), { name: `Name ${i}` }, undefined, now()),
    );
    const outcomes = await Promise.all([...creates, ...renames]);
    expect(outcomes.slice(0, 12)).toEqual(Array(12).fill('created'));
    expect(outcomes.slice(12).map((o) => (o as { outcome: string }).outcome)).toEqual(
      Array(6).fill('written'),
    );
    const tree = await expectSummaryRight(org.orgId);
    expect(tree?.buildings).toHaveLength(7);
    expect(tree?.floors).toHaveLength(6);
    // Each rename raised the version once, whoever came first.
    expect(tree?.org.version).toBe(3);
    expect(tree?.buildings.find((b) => b.buildId === b0)?.version).toBe(3);
  });

  it('a rename during a delete: whichever lands first, the summary shows what the partition holds', async () => {
    for (const kind of ['floor', 'building', 'organization'] as const) {
      const { org, buildIds, floorIds } = await organization(1, 1);
      const target = kind === 'floor' ? floorIds[0] : kind === 'building' ? buildIds[0] : org.orgId;
      const read = await node(target as string);
      const [renamed, deleted] = await Promise.all([
        updateNode(read, { name: 'During delete' }, undefined, now()),
        markDeleted(read, undefined, now()),
      ]);
      expect(deleted.outcome).toBe('written');
      expect(['written', 'missing']).toContain(renamed.outcome);
      const tree = await expectSummaryRight(org.orgId);
      if (kind === 'organization') expect(tree).toBeUndefined();
      else expect(tree?.[kind === 'floor' ? 'floors' : 'buildings']).toEqual([]);
    }
  });

  it('a redelivered sweep of a deleted organization leaves no summary behind, and the organization stays gone', async () => {
    const { org, buildIds, floorIds } = await organization(2, 2);
    const ports = sweepPorts();
    // A floor's own delete is swept at the same time as its organization's.
    const floor = await node(floorIds[0] as string);
    await markDeleted(floor, undefined, now());
    const orgNode = await node(org.orgId);
    await markDeleted(orgNode, undefined, now());
    expect((await readOrganizationTrees([org.orgId])).trees).toEqual([]);
    const ref = { kind: 'organization' as const, id: org.orgId, orgId: org.orgId };
    const results = await Promise.all([
      finishDelete(ports, ref),
      finishDelete(ports, ref),
      finishDelete(ports, { ...floor, buildId: buildIds[0] }),
    ]);
    expect(results).toEqual([true, true, true]);
    // Delivered again after it finished: nothing comes back.
    expect(await finishDelete(ports, ref)).toBe(true);
    expect(await finishDelete(ports, { kind: 'building', id: buildIds[1] as string, orgId: org.orgId })).toBe(
      true,
    );
    await expect.poll(() => summaryOf(org.orgId)).toBeUndefined();
    expect((await readOrganizationTrees([org.orgId])).trees).toEqual([]);
  });

  it('an organization stored before summaries is read from its partition and its summary rebuilt, also while it is edited', async () => {
    const orgId = randomUUID();
    const buildId = randomUUID();
    const floorId = randomUUID();
    for (const Item of [
      orgItem({ orgId, orgName: 'Legacy', version: 2 }),
      buildingItem({ orgId, buildId, buildName: 'Old', version: 0 }),
      floorItem({
        orgId,
        buildId,
        floorId,
        floorName: 'Ground',
        floorDevTypes: [3],
        editMode: false,
        version: 1,
      }),
    ]) {
      await dynamo().send(new PutCommand({ TableName: config.platformTable, Item }));
    }
    // A device commit on it before anything else: a summary with only that floor's types, not complete.
    await commitDevices({
      devices: [],
      floors: [{ floor: await node(floorId), expectedDevicesVersion: 0, floorDevTypes: [3, 4] }],
      groups: [],
      live: [],
      now: now(),
    });
    expect((await summaryOf(orgId))?.viewZ).toBeUndefined();
    // Reads rebuild it while floors are added: a rebuild never hides a write that came in between.
    await Promise.all([
      ...Array.from({ length: 6 }, () => readOrganizationTrees([orgId])),
      ...Array.from({ length: 6 }, (_, i) =>
        createFloor(
          {
            orgId,
            buildId,
            floorId: randomUUID(),
            floorName: `New ${i}`,
            floorDevTypes: [],
            editMode: false,
            version: 0,
          },
          now(),
        ),
      ),
    ]);
    await readOrganizationTrees([orgId]);
    expect(summaryTreeOf(await summaryOf(orgId)).o).toEqual(['Legacy', 2]);
    const tree = await expectSummaryRight(orgId);
    expect(tree?.floors).toHaveLength(7);
    expect(tree?.floors.find((f) => f.floorId === floorId)?.floorDevTypes).toEqual([3, 4]);
    const { requests } = await storeRequests(() => readOrganizationTrees([orgId]));
    expect(requests).toEqual(['BatchGetItemCommand']);
  });

  it('a summary in its earlier form (one gzipped view) is rebuilt by the first read, and a write meanwhile is kept', async () => {
    const { org, buildIds } = await organization(1, 2);
    const before = await expectSummaryRight(org.orgId);
    if (!before) throw new Error('no tree');
    const { viewZ, viewCrc, viewBytes, ...rest } = (await summaryOf(org.orgId)) ?? {};
    expect([viewZ, viewCrc, viewBytes].every((v) => v !== undefined)).toBe(true);
    const view = JSON.stringify(toOrganizationView(before.org, before.buildings, before.floors));
    await dynamo().send(
      new PutCommand({ TableName: config.platformTable, Item: { ...rest, view: gzipSync(view) } }),
    );
    // A write to it only raises its rev; the read then rebuilds it from the partition.
    const floorId = randomUUID();
    await createFloor(
      {
        orgId: org.orgId,
        buildId: buildIds[0] as string,
        floorId,
        floorName: 'Added',
        floorDevTypes: [],
        editMode: false,
        version: 0,
      },
      now(),
    );
    expect((await summaryOf(org.orgId))?.viewZ).toBeUndefined();
    const tree = await expectSummaryRight(org.orgId);
    expect(tree?.floors.map((f) => f.floorId)).toContain(floorId);
    const rebuilt = await summaryOf(org.orgId);
    expect(rebuilt?.view).toBeUndefined();
    expect(summaryTreeOf(rebuilt).f[floorId]?.[1]).toBe('Added');
  });

  it('a tree that outgrows what one item holds is marked so and read from its partition; its writes still succeed', async () => {
    const { org, buildIds } = await organization(1, 0);
    // A summary grown to what one item may hold (as tens of thousands of floors would make it):
    // random text, which gzip cannot shrink much.
    const grown = summaryTreeOf(await summaryOf(org.orgId));
    grown.b.padding = [randomBytes(SUMMARY_LIMIT_BYTES).toString('base64').slice(0, 464_000), 0];
    const packed = packedView(org.orgId, grown);
    expect(packed.deflated.byteLength).toBeGreaterThan(SUMMARY_LIMIT_BYTES - 1_500);
    expect(packed.deflated.byteLength).toBeLessThan(SUMMARY_LIMIT_BYTES);
    await dynamo().send(
      new UpdateCommand({
        TableName: config.platformTable,
        Key: keys.orgSummary(org.orgId),
        UpdateExpression: 'SET viewZ = :z, viewCrc = :crc, viewBytes = :bytes',
        ExpressionAttributeValues: { ':z': packed.deflated, ':crc': packed.crc32, ':bytes': packed.bytes },
      }),
    );
    const floorId = randomUUID();
    expect(
      await createFloor(
        {
          orgId: org.orgId,
          buildId: buildIds[0] as string,
          floorId,
          floorName: randomBytes(1_500).toString('base64'),
          floorDevTypes: Array.from({ length: 40 }, (_, i) => i),
          editMode: false,
          version: 0,
        },
        now(),
      ),
    ).toBe('created');
    expect((await summaryOf(org.orgId))?.overflow).toBe(true);
    const tree = await expectSummaryRight(org.orgId);
    expect(tree?.floors.map((f) => f.floorId)).toEqual([floorId]);
  });
});
