import {
  BUILDING_CREATED_TEXT,
  FLOOR_CREATED_TEXT,
  FLOOR_NAME_UPDATED_TEXT,
  ITEM_DELETED_TEXT,
  ORGANIZATION_CREATED_TEXT,
} from '@argentum/contracts';
import type { TreeNodeKind } from './tree';

/** The tree's documented texts (from the contracts) and our own. */
export const TREE_MESSAGES = {
  organizationCreated: ORGANIZATION_CREATED_TEXT,
  buildingCreated: BUILDING_CREATED_TEXT,
  floorCreated: FLOOR_CREATED_TEXT,
  deleted: ITEM_DELETED_TEXT,
  floorRenamed: FLOOR_NAME_UPDATED_TEXT,
} as const;

/** Texts of our own, for outcomes the specification does not cover. */
export const RENAMED_MESSAGES: Record<TreeNodeKind, string> = {
  organization: 'Organization name updated',
  building: 'Building name updated',
  floor: TREE_MESSAGES.floorRenamed,
};

export const NOT_FOUND_MESSAGES: Record<TreeNodeKind, string> = {
  organization: 'This organization does not exist (it may have been deleted).',
  building: 'This building does not exist (it may have been deleted).',
  floor: 'This floor does not exist (it may have been deleted).',
};

export const ITEM_NOT_FOUND_MESSAGE = 'This item does not exist (it may have been deleted).';

export const CHANGED_MEANWHILE_MESSAGE =
  'Someone else changed this item in the meantime. The latest version is now shown; please try again.';

export const WRONG_TYPE_MESSAGE = 'type does not match the item: it is a {kind}.';
