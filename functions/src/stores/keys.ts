/**
 * Key layout of the platform table (single-table design). Every key is built here and nowhere else.
 *
 *   entity     pk                  sk                         gsi1 (lookup)                 gsi2 (listing)
 *   user       USER#{userId}       PROFILE                    EMAIL#{email} / USER          USERS / {email}
 *   member     MEMBERS#{orgId}     USER#{userId}              -                             -
 *   org        ORG#{orgId}         ORG                        NODE#{orgId} / ORG            -
 *   building   ORG#{orgId}         BUILDING#{buildId}         NODE#{buildId} / BUILDING     -
 *   floor      ORG#{orgId}         FLOOR#{buildId}#{floorId}  NODE#{floorId} / FLOOR        -
 *   tree sum.  ORG#{orgId}         SUMMARY                    -                             -
 *   device     DEVICE#{devId}      DEVICE                     gsi3: FLOOR#{floorId} / {devId}  gsi4: ORGDEV#{orgId} / {devId}
 *   devgroup   DEVGROUP#{orgId}#{groupNumber}  GROUP          -                             -
 *   iconsize   ICONSIZE#{userId}#{floorId}     TYPE#{devType} -                             -
 *   token      TOKEN#{sha256}      TOKEN                      -                             -
 *   reset      RESET#{email}       LATEST                     -                             -
 *   connection CONN#{userId}       CLIENT#{clientId}          -                             -
 *   client id  CONN#CLIENT#{clientId}  OWNER                  -                             -
 *   attempts   ATTEMPTS#{kind}#{sha256}  ATTEMPTS             -                             -
 *   command    COMMANDS#{devId}    CMD#{commandId}            -                             -
 *   state      COMMANDS#{devId}    STATE#{port}               -                             -
 *   notification NOTIF#{id}        NOTIF                      -                             -
 *   inbox      INBOX#{userId}      N#{notificationId}         -                             -
 *   episode    EPISODE#{episodeKey}  EPISODE                  -                             -
 *   alarms     ALARMS#{devId}      STATE                      -                             -
 *   alarm mail ALARMMAIL#{notificationId}  SENT               -                             -
 *   watch      PRESENCEWATCH#{0-3} {devId}                   -                             -
 *   polled     VENDORPOLL          {devId}                    -                             -
 *   mail rate  ALARMRATE#{sha256 of e-mail}  W#{windowStart}      -                             -
 *   digest     ALARMDIGEST#DUE     {dueAt 13 digits}#{sha256 of e-mail}  -                    -
 *
 * Invite and password-reset tokens are stored only as their SHA-256 hash, with TTL `expiresAt`.
 * A connection is a browser's open real-time connection as the realtime authorizer admitted it (TTL
 * `expiresAt`, when the broker drops it anyway); the authorizer may write only items under `CONN#`.
 * A client id item binds a browser client id to the one user who connects under it (TTL `expiresAt`).
 * A device carries `version` (raised by every API change; missing counts as 0); its gsi3 key is set
 * only while it is on a floor. Its indexes project keys only, so what a reading writes (latest values,
 * lastSeen, presence) is copied into no index; listings read the items after the index query. A floor item also carries `devicesVersion`, raised by every commit that
 * changes its devices or `floorDevTypes`. A device group item (members, version) claims its number in
 * the organization while the group exists; its devices carry `groupNumber`. An icon size is one
 * user's size of one device type's icons on one floor (`value`).
 * Attempt counters (sign-in failures, reset-mail requests) are keyed by the SHA-256 of the counted
 * e-mail or address, also with TTL `expiresAt`.
 * Commands to a device sort by time (a command id starts with its request time) beside the values the
 * device last confirmed per port; commands expire (TTL `expiresAt`) after a year.
 * A device's presence (online/offline, why, since when, its open offline episode) is its item's
 * `presence` map; while it is online or has an open episode, a watch item (sharded by the id's hash)
 * lists it for the presence sweep, so the sweep reads only those devices, never the table.
 * A notification is stored once; each recipient's inbox entry refers to it and carries that user's
 * read and deleted flags (a deleted entry stays as a tombstone, so a redelivered alarm does not bring
 * it back). Notification ids sort by time, so an inbox reads newest first. Both expire (TTL `expiresAt`),
 * as does an alarm episode's claim of its notification (`id`, `createdAt`).
 */
/** The partition-key prefix of connection items (the authorizer's IAM policy is limited to it). */
export const connectionKeyPrefix = 'CONN#';
/** The partition-key prefix of commands and reported states (control's IAM policies are limited to it). */
export const commandKeyPrefix = 'COMMANDS#';
/** The vendor poller's list (a few thousand third-party devices at most: one partition). */
export const VENDOR_POLL_PARTITION = 'VENDORPOLL';
/** The presence sweep's watch list is spread over this many partitions. */
export const PRESENCE_WATCH_SHARDS = 4;

export const keys = {
  user: (userId: string) => ({ pk: `USER#${userId}`, sk: 'PROFILE' }),
  userEmail: (email: string) => ({ gsi1pk: `EMAIL#${email}`, gsi1sk: 'USER' }),
  userListing: (email: string) => ({ gsi2pk: 'USERS', gsi2sk: email }),
  // Membership of a user in an organization: a lookup kept in step with the user record (the record
  // decides). Its own key space, so reading an organization's tree never reads its members.
  membersPartition: (orgId: string) => `MEMBERS#${orgId}`,
  member: (orgId: string, userId: string) => ({ pk: `MEMBERS#${orgId}`, sk: `USER#${userId}` }),

  orgPartition: (orgId: string) => `ORG#${orgId}`,
  org: (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
  building: (orgId: string, buildId: string) => ({ pk: `ORG#${orgId}`, sk: `BUILDING#${buildId}` }),
  floor: (orgId: string, buildId: string, floorId: string) => ({
    pk: `ORG#${orgId}`,
    sk: `FLOOR#${buildId}#${floorId}`,
  }),
  /** What the sidebar shows of an organization's tree, kept by every tree write (stores/tree-summary.ts). */
  orgSummary: (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'SUMMARY' }),
  node: (id: string, type: TreeNodeType) => ({ gsi1pk: `NODE#${id}`, gsi1sk: type }),

  device: (devId: string) => ({ pk: `DEVICE#${devId}`, sk: 'DEVICE' }),
  deviceOnFloor: (floorId: string, devId: string) => ({ gsi3pk: `FLOOR#${floorId}`, gsi3sk: devId }),
  deviceOfOrg: (orgId: string, devId: string) => ({ gsi4pk: `ORGDEV#${orgId}`, gsi4sk: devId }),
  deviceGroup: (orgId: string, groupNumber: number) => ({
    pk: `DEVGROUP#${orgId}#${groupNumber}`,
    sk: 'GROUP',
  }),
  iconSizesPartition: (userId: string, floorId: string) => `ICONSIZE#${userId}#${floorId}`,
  iconSize: (userId: string, floorId: string, devType: number) => ({
    pk: `ICONSIZE#${userId}#${floorId}`,
    sk: `TYPE#${devType}`,
  }),

  accountToken: (tokenHash: string) => ({ pk: `TOKEN#${tokenHash}`, sk: 'TOKEN' }),
  /** Names the latest password-reset token of an e-mail; earlier ones are superseded. */
  latestReset: (email: string) => ({ pk: `RESET#${email}`, sk: 'LATEST' }),

  connectionsPartition: (userId: string) => `${connectionKeyPrefix}${userId}`,
  connection: (userId: string, clientId: string) => ({
    pk: `${connectionKeyPrefix}${userId}`,
    sk: `CLIENT#${clientId}`,
  }),
  /** The owner of a browser client id (user ids are UUIDs: never `CLIENT#...`). */
  clientIdOwner: (clientId: string) => ({ pk: `${connectionKeyPrefix}CLIENT#${clientId}`, sk: 'OWNER' }),
  commandsPartition: (devId: string) => `${commandKeyPrefix}${devId}`,
  command: (devId: string, commandId: string) => ({
    pk: `${commandKeyPrefix}${devId}`,
    sk: `CMD#${commandId}`,
  }),
  reportedState: (devId: string, port: string) => ({
    pk: `${commandKeyPrefix}${devId}`,
    sk: `STATE#${port}`,
  }),
  notification: (id: string) => ({ pk: `NOTIF#${id}`, sk: 'NOTIF' }),
  inboxPartition: (userId: string) => `INBOX#${userId}`,
  inboxEntry: (userId: string, notificationId: string) => ({
    pk: `INBOX#${userId}`,
    sk: `N#${notificationId}`,
  }),
  /** An alarm episode's claim of its one notification (NotificationStore `claimEpisode`). */
  episode: (episodeKey: string) => ({ pk: `EPISODE#${episodeKey}`, sk: 'EPISODE' }),
  alarms: (devId: string) => ({ pk: `ALARMS#${devId}`, sk: 'STATE' }),
  presenceWatchPartition: (shard: number) => `PRESENCEWATCH#${shard}`,
  /** A device linked to its vendor's cloud, listed for the vendor poller (domain/integrations/polling.ts). */
  vendorPoll: (devId: string) => ({ pk: VENDOR_POLL_PARTITION, sk: devId }),
  presenceWatch: (devId: string) => ({
    pk: `PRESENCEWATCH#${[...devId].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 0) % PRESENCE_WATCH_SHARDS}`,
    sk: devId,
  }),
  alarmMailRate: (recipientKey: string, windowStart: number) => ({
    pk: `ALARMRATE#${recipientKey}`,
    sk: `W#${windowStart}`,
  }),
  alarmDigestPartition: 'ALARMDIGEST#DUE',
  alarmDigest: (digestKey: string) => ({ pk: 'ALARMDIGEST#DUE', sk: digestKey }),
  alarmMail: (notificationId: string, recipientKey: string) => ({
    pk: `ALARMMAIL#${notificationId}`,
    sk: `SENT#${recipientKey}`,
  }),
  /** The last weather reading of a city, shared by the data API's instances (adapters/weather-cache.ts). */
  weather: (city: string) => ({ pk: `WEATHER#${city.toLowerCase()}`, sk: 'CURRENT' }),
  attempts: (kind: string, subjectHash: string) => ({
    pk: `ATTEMPTS#${kind}#${subjectHash}`,
    sk: 'ATTEMPTS',
  }),
} as const;

export type TreeNodeType = 'ORG' | 'BUILDING' | 'FLOOR';
