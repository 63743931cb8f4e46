import { createContext, useContext } from 'react';
import type { CreateRequest } from '../api/treeEditing';
import type { TreeNodeRef } from '../api/types';

/** What the rows of the tree need for editing; the functions keep their identity across renders. */
export interface TreeEditActions {
  editMode: boolean;
  /** Resolves true when the item was created (failures are reported by the mutation). */
  create: (request: CreateRequest) => Promise<boolean>;
  rename: (node: TreeNodeRef, value: string) => Promise<boolean>;
  requestDelete: (node: TreeNodeRef) => void;
}

export const TreeEditContext = createContext<TreeEditActions>({
  editMode: false,
  create: () => Promise.resolve(false),
  rename: () => Promise.resolve(false),
  requestDelete: () => undefined,
});

export const useTreeEdit = () => useContext(TreeEditContext);
