import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TreeRequest } from '@argentum/events/contracts/requests';
import { ApiError, apiPost, refreshSession } from '../../../shared/api/client';
import {
  BUILDING_CREATED_TEXT,
  FLOOR_CREATED_TEXT,
  FLOOR_NAME_UPDATED_TEXT,
  ITEM_DELETED_TEXT,
  ORGANIZATION_CREATED_TEXT,
  EMPTY_NAME_TEXT,
} from '@argentum/events/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { treeQueries } from './treeQueries';
import type { TreeNodeRef, TreeNodeType } from './types';

/** The specification's message for an empty name, or null when the name is acceptable. */
export function validateNodeName(type: TreeNodeType, value: string): string | null {
  return value.trim() === '' ? EMPTY_NAME_TEXT[type] : null;
}

/** What a create answers: the new node (only its id is used; the tree is fetched again). */
interface Created {
  organization?: { _id: string };
  building?: { _id: string };
  floor?: { _id: string };
}

/** A tree call, its body typed by the route table's schema (shared through the contracts). */
const treeCall = <Call extends keyof typeof treePaths, Answer = unknown>(
  call: Call,
  body: TreeRequest<Call>,
) => apiPost<Answer>(treePaths[call], body);

const treePaths = {
  createOrUpdateOrgBuild: '/api/dashboard/createOrUpdateOrgBuild',
  createOrUpdateFloor: '/api/dashboard/createOrUpdateFloor',
  updateOrgBuildFloorName: '/api/dashboard/updateOrgBuildFloorName',
  deleteOrgBuildFloor: '/api/dashboard/deleteOrgBuildFloor',
  updateFloorPlan: '/api/dashboard/updateFloorPlan',
} as const;

const treeApi = {
  createOrganization: (orgName: string) =>
    treeCall<'createOrUpdateOrgBuild', Created>('createOrUpdateOrgBuild', { orgName }),
  createBuilding: (orgID: string, buildName: string) =>
    treeCall<'createOrUpdateOrgBuild', Created>('createOrUpdateOrgBuild', { orgID, buildName }),
  createFloor: (buildID: string, floorName: string) =>
    treeCall<'createOrUpdateFloor', Created>('createOrUpdateFloor', { buildID, floorName }),
  rename: (node: TreeNodeRef, value: string) =>
    treeCall('updateOrgBuildFloorName', { id: node.id, value, version: node.version }),
  remove: (node: TreeNodeRef) =>
    treeCall('deleteOrgBuildFloor', { id: node.id, type: node.type, version: node.version }),
  renameFloor: (orgID: string, floorID: string, floorName: string, version: number | undefined) =>
    treeCall('updateFloorPlan', { orgID, floorID, updateFloorObj: { floorName }, version }),
};

export type CreateRequest =
  | { type: 'organization'; name: string }
  | { type: 'building'; orgID: string; name: string }
  | { type: 'floor'; buildID: string; name: string };

const CREATED_TEXT: Record<TreeNodeType, string> = {
  organization: ORGANIZATION_CREATED_TEXT,
  building: BUILDING_CREATED_TEXT,
  floor: FLOOR_CREATED_TEXT,
};

/**
 * The tree's edits. After each one the tree is fetched again (the mutation stays pending until it
 * is, so the UI never shows a stale tree). A refused edit (someone else changed or deleted the
 * item, a validation message) shows the server's message; unexpected failures are toasted by the
 * API client.
 */
export function useTreeEditing() {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: treeQueries.all() });
  const onError = (error: unknown) => {
    if (error instanceof ApiError && error.isClientError) {
      showToast(error.message, 'error');
      return refresh();
    }
    return undefined;
  };

  const create = useMutation({
    mutationFn: (request: CreateRequest) => {
      if (request.type === 'organization') return treeApi.createOrganization(request.name.trim());
      if (request.type === 'building') return treeApi.createBuilding(request.orgID, request.name.trim());
      return treeApi.createFloor(request.buildID, request.name.trim());
    },
    onSuccess: async (_result, request) => {
      // The creator administers a new organization: the session's roles learn of it at once.
      if (request.type === 'organization') await refreshSession({ silent: true }).catch(() => undefined);
      await refresh();
      showToast(CREATED_TEXT[request.type], 'success');
    },
    onError,
  });

  const rename = useMutation({
    mutationFn: ({ node, value }: { node: TreeNodeRef; value: string }) => treeApi.rename(node, value.trim()),
    onSuccess: async (_result, { node }) => {
      await refresh();
      if (node.type === 'floor') showToast(FLOOR_NAME_UPDATED_TEXT, 'success');
    },
    onError,
  });

  const remove = useMutation({
    mutationFn: (node: TreeNodeRef) => treeApi.remove(node),
    onSuccess: async () => {
      await refresh();
      showToast(ITEM_DELETED_TEXT, 'success');
    },
    onError,
  });

  const renameFloor = useMutation({
    mutationFn: (input: { orgID: string; floorID: string; floorName: string; version: number | undefined }) =>
      treeApi.renameFloor(input.orgID, input.floorID, input.floorName.trim(), input.version),
    onSuccess: async () => {
      await refresh();
      showToast(FLOOR_NAME_UPDATED_TEXT, 'success');
    },
    onError,
  });

  return { create, rename, remove, renameFloor };
}
