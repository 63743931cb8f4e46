/** The tree sweeper's ports. */
import { leaveOrganization } from '../../domain/users/membership';
import { dynamoDevices } from '../../stores/devices';
import { files } from './files';
import { clock, logger, tree, users } from './core';
import { realtimeRevocation } from './realtime';

export const sweepPorts = () => ({
  tree,
  devices: dynamoDevices,
  files,
  members: {
    memberIds: (orgId: string) => users.memberIds(orgId),
    leaveOrganization: (userId: string, orgId: string) =>
      leaveOrganization({ users, clock, realtime: realtimeRevocation }, userId, orgId),
  },
  clock,
  logger,
});
