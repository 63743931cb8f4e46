/**
 * In-memory fakes of the domain's ports, for use-case tests in the unit project. Each fake passes the
 * same contract tests as its DynamoDB adapter (functions/test/support/*-contract.ts, run against both),
 * so a fake cannot drift from what the real store does.
 */
import type { CommandRecord, CommandStore, ReportedState } from '../../../src/domain/control/ports';
import type { Device, PortName, PortValues } from '../../../src/domain/devices/device';
import type { CommitOutcome, DeviceCommit, ReportedPorts } from '../../../src/domain/devices/ports';
import { isNewestReading, takeReading } from '../../../src/domain/devices/latest';
import { applied } from '../../../src/domain/devices/placement';
import type { PresenceDevice, PresenceStore } from '../../../src/domain/devices/presence';
import type { AlarmStore, DeviceAlarms } from '../../../src/domain/notifications/alarms';
import type { NotificationStore, StoredNotification } from '../../../src/domain/notifications/ports';
import type { Clock, Logger, LogLevel, Metrics } from '../../../src/domain/ports';
import type { TreeStore } from '../../../src/domain/tree/ports';
import {
  type Building,
  type Floor,
  type Organization,
  toOrganizationView,
  type TreeNode,
} from '../../../src/domain/tree/tree';
import { JsonText } from '../../../src/lib/json-text';
import type { UserStore } from '../../../src/domain/users/ports';
import type { UserRecord } from '../../../src/domain/users/user';
import {
  addValue,
  type Bucket,
  bucketStart,
  type PointStats,
  type TelemetryPoint,
  type TelemetryStore,
} from '../../../src/domain/telemetry/telemetry';

/** Stored values are copies: a caller changing what it passed or got never changes the store. */
const copy = <T>(value: T): T => structuredClone(value);

/** Raw readings by device and time; roll-ups computed from them when read (as DynamoDB's converge). */
export function memoryTelemetryStore(): TelemetryStore & { failing: Set<string> } {
  const series = new Map<string, Map<number, Record<string, number>>>();
  const failing = new Set<string>();
  const sorted = (devId: string, from: number, to: number) =>
    [...(series.get(devId) ?? new Map<number, Record<string, number>>()).entries()]
      .filter(([time]) => time >= from && time <= to)
      .sort(([a], [b]) => a - b);
  return {
    /** Devices whose writes fail (as a refused item fails in DynamoDB): for tests of what follows. */
    failing,
    async write(points) {
      const failedDevices = new Set<string>();
      for (const p of points) {
        if (failing.has(p.devId)) {
          failedDevices.add(p.devId);
          continue;
        }
        let readings = series.get(p.devId);
        if (!readings) series.set(p.devId, (readings = new Map()));
        readings.set(p.time, copy(p.values));
      }
      return { failedDevices };
    },
    async readRaw(devId, from, to, limit) {
      const all = sorted(devId, from, to);
      const items: TelemetryPoint[] = all
        .slice(0, limit)
        .map(([time, values]) => ({ devId, time, values: copy(values) }));
      return { items, more: all.length > limit };
    },
    async readBuckets(devId, resolution, from, to, limit) {
      const buckets = new Map<number, Record<string, PointStats>>();
      for (const [time, values] of sorted(devId, bucketStart(from, resolution), Number.MAX_SAFE_INTEGER)) {
        const start = bucketStart(time, resolution);
        if (start < from || start > to) continue;
        let stats = buckets.get(start);
        if (!stats) buckets.set(start, (stats = {}));
        for (const [dp, value] of Object.entries(values)) addValue(stats, dp, value);
      }
      const items: Bucket[] = [...buckets.entries()]
        .sort(([a], [b]) => a - b)
        .map(([time, stats]) => ({ time, stats }));
      return { items: items.slice(0, limit), more: items.length > limit };
    },
  };
}

const PENDING = new Set(['requested', 'sent']);

/** Commands and confirmed port states, with the conditions the DynamoDB adapter writes under. */
export function memoryCommandStore(): CommandStore {
  const commands = new Map<string, CommandRecord>();
  const states = new Map<string, ReportedState>();
  const key = (devId: string, commandId: string) => `${devId}#${commandId}`;
  /** Changes a stored command when `holds` says so; false otherwise (a condition that failed). */
  const updateIf = (
    devId: string,
    commandId: string,
    holds: (c: CommandRecord) => boolean,
    change: Partial<CommandRecord>,
  ) => {
    const current = commands.get(key(devId, commandId));
    if (!current || !holds(current)) return false;
    commands.set(key(devId, commandId), { ...current, ...copy(change) });
    return true;
  };
  return {
    async create(command) {
      if (commands.has(key(command.devID, command.commandId))) throw new Error('The command exists');
      commands.set(key(command.devID, command.commandId), copy(command));
    },
    async markSent(devId, commandId, sentAt, deadlineAt) {
      return updateIf(devId, commandId, (c) => c.status === 'requested', {
        status: 'sent',
        sentAt,
        deadlineAt,
      });
    },
    async markUnsent(devId, commandId, reply) {
      updateIf(devId, commandId, (c) => c.status === 'requested', { status: 'failed', reply });
    },
    async get(devId, commandId) {
      const found = commands.get(key(devId, commandId));
      return found && copy(found);
    },
    async recent(devId, limit) {
      return [...commands.values()]
        .filter((c) => c.devID === devId)
        .sort((a, b) => (a.commandId < b.commandId ? 1 : -1))
        .slice(0, limit)
        .map(copy);
    },
    async recordReply(devId, commandId, reply, receivedAt, when) {
      if (when === 'in time')
        return updateIf(
          devId,
          commandId,
          (c) =>
            c.deadlineAt >= receivedAt &&
            (PENDING.has(c.status) ||
              (c.status === 'timed out' && c.reply === undefined && c.lateReply === undefined)),
          {
            status: reply.outcome === 'success' ? 'confirmed' : 'failed',
            reply,
          },
        );
      return updateIf(
        devId,
        commandId,
        (c) =>
          (PENDING.has(c.status) && c.deadlineAt < receivedAt) ||
          (c.status === 'timed out' && c.lateReply === undefined),
        { status: reply.outcome === 'success' ? 'confirmed late' : 'timed out', lateReply: reply },
      );
    },
    async recordTimeout(devId, commandId, now) {
      return updateIf(devId, commandId, (c) => PENDING.has(c.status) && c.deadlineAt < now, {
        status: 'timed out',
      });
    },
    async recordState(state) {
      const current = states.get(`${state.devID}#${state.port}`);
      if (!current || current.reportedAt <= state.reportedAt)
        states.set(`${state.devID}#${state.port}`, copy(state));
    },
    async reportedState(devId, port) {
      const found = states.get(`${devId}#${port}`);
      return found && copy(found);
    },
  };
}

/** Registered devices: what ingest and control read of them, and the listings of floors and organizations. */
export function memoryDevices(devices: readonly Device[] = []) {
  const byId = new Map(devices.map((d) => [d.devID, copy(d)]));
  const listed = (belongs: (d: Device) => boolean) =>
    [...byId.values()]
      .filter(belongs)
      .sort((a, b) => (a.devID < b.devID ? -1 : a.devID > b.devID ? 1 : 0))
      .map(copy);
  return {
    byId,
    async get(devId: string) {
      const found = byId.get(devId);
      return found && copy(found);
    },
    async register(device: Device) {
      const existing = byId.get(device.devID);
      if (existing) return { outcome: 'exists' as const, device: copy(existing) };
      byId.set(device.devID, copy(device));
      return { outcome: 'written' as const };
    },
    async onFloor(floorId: string) {
      return listed((d) => d.onFloor && d.floorID === floorId);
    },
    async ofOrganization(orgId: string) {
      return listed((d) => d.orgID === orgId);
    },
    async ownerOf(devId: string) {
      return byId.get(devId)?.orgID;
    },
    /**
     * Like the store: each point takes the reading's value unless it holds a newer one (takeReading); its
     * own newest reading sets its clock's offset.
     */
    async recordLatest(devId: string, time: number, values: Record<string, number>, clockOffset?: number) {
      const device = byId.get(devId);
      const next = device && takeReading(device, time, values);
      if (!device || !next) return undefined;
      const clock = clockOffset !== undefined && isNewestReading(device, time) ? { clockOffset } : {};
      const written = { ...device, ...copy(next), ...clock };
      byId.set(devId, written);
      return copy(written);
    },
    /** Like the store: counts an alarm episode opened on the device, if it is still there. */
    async noteAlarmOpened(devId: string) {
      const device = byId.get(devId);
      if (device) byId.set(devId, { ...device, alarmsOpened: (device.alarmsOpened ?? 0) + 1 });
    },
    /**
     * Like the store, for device changes (floors, groups and tree nodes are not held here): all or
     * nothing, each over the version read and in its organization, writing only the attributes the
     * change names onto the device as it is now, so what other writers keep meanwhile (alarmsOpened,
     * latest, port values and their times) stays.
     */
    async commit(write: DeviceCommit): Promise<CommitOutcome> {
      if (write.floors.length > 0 || write.groups.length > 0 || write.live.length > 0)
        throw new Error('memoryDevices holds devices only: a commit of floors, groups or tree nodes');
      for (const change of write.devices) {
        const device = byId.get(change.devId);
        if (!device || device.orgID !== change.orgId || (device.version ?? 0) !== change.expectedVersion)
          return { outcome: 'refused', reason: 'device-changed' };
      }
      for (const change of write.devices) {
        const device = byId.get(change.devId);
        if (device) byId.set(change.devId, applied(device, copy(change), write.now));
      }
      return { outcome: 'written' };
    },
    /** Like the store: per port, a value from a newer report stays; answers the ports written. */
    async recordPortReport({ devId, orgId, at, ports, now }: ReportedPorts): Promise<PortValues | undefined> {
      const device = byId.get(devId);
      if (!device || device.orgID !== orgId) return undefined;
      const winning = (Object.entries(ports) as [PortName, 0 | 1][]).filter(
        ([port]) => !((device.portReportedAt?.[port] ?? -Infinity) > at),
      );
      if (winning.length === 0) return {};
      byId.set(devId, {
        ...device,
        properties: { ...device.properties, ...Object.fromEntries(winning) },
        portReportedAt: {
          ...device.portReportedAt,
          ...Object.fromEntries(winning.map(([port]) => [port, at])),
        },
        version: (device.version ?? 0) + 1,
        updatedAt: now,
      });
      return Object.fromEntries(winning);
    },
  };
}

/** A clock the test moves. */
export function testClock(start = Date.UTC(2026, 10, 24, 9)) {
  let now = start;
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  } satisfies Clock & { advance(ms: number): void };
}

/** A logger and a metrics port that keep what they were given. */
export function recordingLogger() {
  const lines: { level: LogLevel; message: string; fields?: Record<string, unknown> }[] = [];
  return {
    lines,
    log: (level: LogLevel, message: string, fields?: Record<string, unknown>) => {
      lines.push({ level, message, ...(fields ? { fields } : {}) });
    },
  } satisfies Logger & { lines: unknown[] };
}

export function recordingMetrics() {
  const counts = new Map<string, number>();
  return {
    counts,
    count: (name: string, value: number) => {
      counts.set(name, (counts.get(name) ?? 0) + value);
    },
  } satisfies Metrics & { counts: Map<string, number> };
}

/** Notifications stored once, and each user's inbox of them (newest first, by id as the sort key). */
export function memoryNotificationStore(): NotificationStore {
  const notifications = new Map<string, StoredNotification>();
  const episodes = new Map<string, Pick<StoredNotification, 'id' | 'createdAt'>>();
  const inboxes = new Map<string, Map<string, { orgId: string; read: boolean; deleted: boolean }>>();
  const inboxOf = (userId: string) => {
    let inbox = inboxes.get(userId);
    if (!inbox) inboxes.set(userId, (inbox = new Map()));
    return inbox;
  };
  const live = (userId: string, orgIds: readonly string[], unreadOnly: boolean) =>
    [...inboxOf(userId).entries()]
      .filter(([, e]) => !e.deleted && orgIds.includes(e.orgId) && (!unreadOnly || !e.read))
      .sort(([a], [b]) => (a < b ? 1 : -1));
  return {
    async deliver(notification, userIds) {
      const isNew = !notifications.has(notification.id);
      if (isNew) notifications.set(notification.id, copy(notification));
      for (const userId of userIds) {
        const inbox = inboxOf(userId);
        if (!inbox.has(notification.id))
          inbox.set(notification.id, { orgId: notification.orgId, read: false, deleted: false });
      }
      return isNew ? 'new' : 'known';
    },
    async page(userId, { orgIds, skip, limit, unreadOnly }) {
      const entries = live(userId, orgIds, unreadOnly);
      return {
        entries: entries.slice(skip, skip + limit).flatMap(([id, e]) => {
          const notification = notifications.get(id);
          return notification ? [{ notification: copy(notification), read: e.read }] : [];
        }),
        hasMore: entries.length > skip + limit,
      };
    },
    async unreadCount(userId, orgIds) {
      return live(userId, orgIds, true).length;
    },
    async markRead(userId, ids) {
      for (const id of ids) {
        const entry = inboxOf(userId).get(id);
        if (entry) entry.read = true;
      }
    },
    async remove(userId, id) {
      const entry = inboxOf(userId).get(id);
      if (!entry || entry.deleted) return undefined;
      entry.deleted = true;
      const found = notifications.get(id);
      return found && copy(found);
    },
    async claimEpisode(episodeKey, candidate) {
      const held = episodes.get(episodeKey);
      if (!held) episodes.set(episodeKey, { id: candidate.id, createdAt: candidate.createdAt });
      return { ...candidate, ...held };
    },
    async get(id) {
      const found = notifications.get(id);
      return found && copy(found);
    },
    async markCleared(id, clearedAt) {
      const found = notifications.get(id);
      if (!found) return undefined;
      const recorded = found.clearedAt === undefined;
      if (recorded) notifications.set(id, { ...found, clearedAt });
      return { notification: copy(notifications.get(id) ?? found), recorded };
    },
  };
}

/** Alarm state per device, written conditioned on the version read. */
export function memoryAlarmStore(): AlarmStore {
  const states = new Map<string, DeviceAlarms>();
  return {
    async get(devId) {
      const found = states.get(devId);
      return found && copy(found);
    },
    async getMany(devIds) {
      const found = new Map<string, DeviceAlarms>();
      for (const devId of devIds) {
        const state = states.get(devId);
        if (state) found.set(devId, copy(state));
      }
      return found;
    },
    async saveIfUnchanged(next, read) {
      const current = states.get(next.devId);
      if (read ? current?.version !== read.version : current !== undefined) return 'changed-meanwhile';
      states.set(next.devId, copy(next));
      return 'saved';
    },
  };
}

/**
 * Presence on the registered devices (`devices`, shared with memoryDevices), conditioned on the
 * revision and newest reading read, and the sweep's watch list.
 */
export function memoryPresenceStore(devices: Map<string, Device>): PresenceStore & { watching: Set<string> } {
  const watching = new Set<string>();
  const presenceDevice = (device: Device): PresenceDevice => copy(device);
  return {
    watching,
    async get(devId) {
      const device = devices.get(devId);
      return device && presenceDevice(device);
    },
    async saveIfUnchanged(devId, next, read) {
      const device = devices.get(devId);
      if (!device || device.presence?.rev !== read.rev || device.lastSeen !== read.lastSeen)
        return 'changed-meanwhile';
      devices.set(devId, { ...device, presence: copy(next) });
      if (next.online || next.episode !== undefined) watching.add(devId);
      else watching.delete(devId);
      return 'saved';
    },
    async watched() {
      for (const id of watching) if (!devices.has(id)) watching.delete(id);
      return [...watching].flatMap((id) => {
        const device = devices.get(id);
        return device ? [presenceDevice(device)] : [];
      });
    },
    async unwatch(devId) {
      watching.delete(devId);
    },
  };
}

/** User records, written conditioned on the version read, with the membership lookup kept in step. */
export function memoryUserStore(): UserStore {
  const users = new Map<string, UserRecord>();
  const members = new Map<string, Set<string>>();
  const membersOf = (orgId: string) => {
    let set = members.get(orgId);
    if (!set) members.set(orgId, (set = new Set()));
    return set;
  };
  const unchanged = (read: UserRecord | undefined, userId: string) => {
    const current = users.get(userId);
    return read ? current?.version === read.version : current === undefined;
  };
  return {
    async get(userId) {
      const found = users.get(userId);
      return found && copy(found);
    },
    async findByEmail(email) {
      const found = [...users.values()].find((u) => u.email === email);
      return found && copy(found);
    },
    async getMany(userIds) {
      return [...new Set(userIds)].flatMap((id) => {
        const found = users.get(id);
        return found ? [copy(found)] : [];
      });
    },
    async memberIds(orgId) {
      return [...membersOf(orgId)];
    },
    async saveIfUnchanged(next, read) {
      if (!unchanged(read, next.userId)) return 'changed-meanwhile';
      users.set(next.userId, copy(next));
      for (const orgId of Object.keys(read?.orgRoles ?? {}))
        if (!Object.hasOwn(next.orgRoles, orgId)) membersOf(orgId).delete(next.userId);
      for (const orgId of Object.keys(next.orgRoles)) membersOf(orgId).add(next.userId);
      return 'saved';
    },
    async forgetMembership(orgId, userId) {
      membersOf(orgId).delete(userId);
    },
    async deleteIfUnchanged(read) {
      if (!unchanged(read, read.userId)) return 'changed-meanwhile';
      users.delete(read.userId);
      for (const orgId of Object.keys(read.orgRoles)) membersOf(orgId).delete(read.userId);
      return 'deleted';
    },
  };
}

type StoredNode = TreeNode & { floorDevTypes?: number[]; editMode?: boolean };

/**
 * The organization tree: nodes with versions, deletes marked (hidden with what lies under them), and
 * creates refused under a missing or deleted parent. A new organization joins its creator's record
 * through `users` (refused when the creator has no record), as the DynamoDB transaction does.
 */
export function memoryTreeStore(users: UserStore): TreeStore {
  const nodes = new Map<string, StoredNode>();
  const keyOf = (ref: Pick<TreeNode, 'kind' | 'id'>) => `${ref.kind}#${ref.id}`;
  const live = (ref: Pick<TreeNode, 'kind' | 'id'>) => {
    const node = nodes.get(keyOf(ref));
    return node !== undefined && node.deletedAt === undefined;
  };
  const view = (node: StoredNode): TreeNode => {
    const { floorDevTypes: _types, editMode: _edit, ...plain } = node;
    return copy(plain);
  };
  const ofOrg = (orgId: string) => [...nodes.values()].filter((n) => n.orgId === orgId);
  const readOrganizationTree: TreeStore['readOrganizationTree'] = async (orgId) => {
    const all = ofOrg(orgId);
    const tombstones = all.filter((n) => n.deletedAt !== undefined).map(view);
    const org = nodes.get(keyOf({ kind: 'organization', id: orgId }));
    if (!org || org.deletedAt !== undefined) return { tree: undefined, tombstones };
    const deletedBuildings = new Set(tombstones.filter((t) => t.kind === 'building').map((t) => t.id));
    const buildings: Building[] = all
      .filter((n) => n.kind === 'building' && n.deletedAt === undefined)
      .map((n) => ({ orgId, buildId: n.id, buildName: n.name, version: n.version }));
    const floors: Floor[] = all
      .filter(
        (n) => n.kind === 'floor' && n.deletedAt === undefined && !deletedBuildings.has(n.buildId ?? ''),
      )
      .map((n) => ({
        orgId,
        buildId: n.buildId ?? '',
        floorId: n.id,
        floorName: n.name,
        floorDevTypes: [...(n.floorDevTypes ?? [])],
        editMode: n.editMode === true,
        version: n.version,
      }));
    return {
      tree: { org: { orgId, orgName: org.name, version: org.version }, buildings, floors },
      tombstones,
    };
  };
  /** A conditioned write's outcome, as the adapter diagnoses a refused condition. */
  const changeIf = (
    node: TreeNode,
    expectedVersion: number | undefined,
    change: (stored: StoredNode) => StoredNode,
  ) => {
    const stored = nodes.get(keyOf(node));
    if (!stored || stored.deletedAt !== undefined) return { outcome: 'missing' as const };
    if (expectedVersion !== undefined && stored.version !== expectedVersion)
      return { outcome: 'changed' as const, current: view(stored) };
    const next = change(stored);
    nodes.set(keyOf(node), next);
    return { outcome: 'written' as const, value: view(next) };
  };
  const put = (node: StoredNode) => {
    if (nodes.has(keyOf(node))) throw new Error('The node exists');
    nodes.set(keyOf(node), node);
  };
  return {
    readOrganizationTree,
    async readOrganizationTrees(orgIds) {
      const reads = await Promise.all([...new Set(orgIds)].map(readOrganizationTree));
      return { trees: reads.flatMap((r) => (r.tree ? [r.tree] : [])) };
    },
    async readOrganizationViews(orgIds) {
      const reads = await Promise.all([...new Set(orgIds)].map(readOrganizationTree));
      return reads
        .flatMap(({ tree }) => (tree ? [tree] : []))
        .map(({ org, buildings, floors }) => ({
          orgName: org.orgName,
          view: new JsonText(JSON.stringify(toOrganizationView(org, buildings, floors))),
        }));
    },
    async findNode(id) {
      const found = [...nodes.values()].find((n) => n.id === id);
      return found && view(found);
    },
    async getNode(ref) {
      const found = nodes.get(keyOf(ref));
      return found && view(found);
    },
    async createOrganization(org: Required<Organization>, creator, now) {
      const record = await users.get(creator.userId);
      if (!record) return 'creator-missing';
      put({ kind: 'organization', id: org.orgId, orgId: org.orgId, name: org.orgName, version: org.version });
      const next = {
        ...record,
        orgRoles: { ...record.orgRoles, [org.orgId]: creator.role },
        version: record.version + 1,
        updatedAt: now,
      };
      await users.saveIfUnchanged(next, record);
      return 'created';
    },
    async createBuilding(building: Required<Building>) {
      if (!live({ kind: 'organization', id: building.orgId })) return 'parent-missing';
      put({
        kind: 'building',
        id: building.buildId,
        orgId: building.orgId,
        buildId: building.buildId,
        name: building.buildName,
        version: building.version,
      });
      return 'created';
    },
    async createFloor(floor: Required<Floor>) {
      if (!live({ kind: 'organization', id: floor.orgId }) || !live({ kind: 'building', id: floor.buildId }))
        return 'parent-missing';
      put({
        kind: 'floor',
        id: floor.floorId,
        orgId: floor.orgId,
        buildId: floor.buildId,
        name: floor.floorName,
        version: floor.version,
        floorDevTypes: [...floor.floorDevTypes],
        editMode: floor.editMode,
      });
      return 'created';
    },
    async updateNode(node, changes, expectedVersion) {
      return changeIf(node, expectedVersion, (stored) => ({
        ...stored,
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.floorDevTypes !== undefined && stored.kind === 'floor'
          ? { floorDevTypes: [...changes.floorDevTypes] }
          : {}),
        version: stored.version + 1,
      }));
    },
    async markDeleted(node, expectedVersion, now) {
      return changeIf(node, expectedVersion, (stored) => ({
        ...stored,
        deletedAt: now,
        version: stored.version + 1,
      }));
    },
    async requestSweep() {
      // The sweeper is handed the node again; nothing to keep here.
    },
    async listFloors(orgId, buildId) {
      return ofOrg(orgId)
        .filter((n) => n.kind === 'floor' && (buildId === undefined || n.buildId === buildId))
        .map(view);
    },
    async listBuildings(orgId) {
      return ofOrg(orgId)
        .filter((n) => n.kind === 'building')
        .map(view);
    },
    async removeNodeItem(node) {
      nodes.delete(keyOf(node));
    },
  };
}
