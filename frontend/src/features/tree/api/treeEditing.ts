import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ApiAnswer } from '@argentum/contracts/api';
import { ApiError, callApi, refreshSession } from '../../../shared/api/client';
import {
  BUILDING_CREATED_TEXT,
  FLOOR_CREATED_TEXT,
  FLOOR_NAME_UPDATED_TEXT,
  ITEM_DELETED_TEXT,
  ORGANIZATION_CREATED_TEXT,
  EMPTY_NAME_TEXT,
} from '@argentum/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { treeQueries } from './treeQueries';
import type { TreeNodeRef, TreeNodeType } from './types';

/** The specification's message for an empty name, or null when the name is acceptable. */
export function validateNodeName(type: TreeNodeType, value: string): string | null {
  return value.trim() === '' ? EMPTY_NAME_TEXT[type] : null;
}

const treeApi = {
  createOrganization: (orgName: string) => callApi('createOrUpdateOrgBuild', { orgName }),
  createBuilding: (orgID: string, buildName: string) =>
    callApi('createOrUpdateOrgBuild', { orgID, buildName }),
  createFloor: (buildID: string, floorName: string) => callApi('createOrUpdateFloor', { buildID, floorName }),
  rename: (node: TreeNodeRef, value: string) =>
    callApi('updateOrgBuildFloorName', { id: node.id, value, version: node.version }),
  remove: (node: TreeNodeRef) =>
    callApi('deleteOrgBuildFloor', { id: node.id, type: node.type, version: node.version }),
  renameFloor: (orgID: string, floorID: string, floorName: string, version: number | undefined) =>
    callApi('updateFloorPlan', { orgID, floorID, updateFloorObj: { floorName }, version }),
};

/** The id of the organization or building a create answers. */
const idOf = (answer: ApiAnswer<'createOrUpdateOrgBuild'>) =>
  'organization' in answer ? answer.organization._id : answer.building._id;

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
    /** Answers the id of the new organization or building (a floor has nothing under it to open). */
    mutationFn: async (request: CreateRequest): Promise<string | undefined> => {
      if (request.type === 'organization') return idOf(await treeApi.createOrganization(request.name.trim()));
      if (request.type === 'building')
        return idOf(await treeApi.createBuilding(request.orgID, request.name.trim()));
      await treeApi.createFloor(request.buildID, request.name.trim());
      return undefined;
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
