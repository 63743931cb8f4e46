import type { TreeNodeKind } from './tree';

/** Texts of the specification (access-admin-notifications.md), spelling included. */
export const TREE_MESSAGES = {
  organizationCreated: 'Organization has been created successfuly.',
  buildingCreated: 'New Building has been created successfuly',
  floorCreated: 'New Floor has been created successfuly',
  deleted: 'Item deleted successfully',
  floorRenamed: 'Floor name updated',
} as const;

export const EMPTY_NAME_MESSAGES: Record<TreeNodeKind, string> = {
  organization: 'Organization name can not be empty.',
  building: 'Building name can not be empty.',
  floor: 'Floor name can not be empty.',
};

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
