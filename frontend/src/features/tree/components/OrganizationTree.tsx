import {
  Button,
  Loader,
  Menu,
  MenuButton,
  MenuItem,
  Placeholder,
  Text,
  VisuallyHidden,
} from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { truncateName } from '@argentum/contracts';
import { administers, useSessionUser } from '../../../shared/session/sessionStore';
import {
  ADD_BUILDING_PLACEHOLDER,
  ADD_FLOOR_PLACEHOLDER,
  BUILDING_NAME_PLACEHOLDER,
  CREATE_BUILDING_TEXT,
  CREATE_FLOOR_TEXT,
  CREATE_ORGANIZATION_TEXT,
  EDIT_DONE_TEXT,
  EDIT_ORGANIZATION_TEXT,
  EDIT_ORGANIZATION_TOOLTIP,
  ORGANIZATION_NAME_PLACEHOLDER,
} from '@argentum/contracts';
import { type CreateRequest, useTreeEditing } from '../api/treeEditing';
import { findFloor, treeQueries } from '../api/treeQueries';
import type { Building, Floor, Organization, TreeNodeRef, TreeNodeType } from '../api/types';
import { DeleteDialog } from './DeleteDialog';
import {
  BuildingIcon,
  ChevronRightIcon,
  CloseIcon,
  FloorIcon,
  MoreIcon,
  OrganizationIcon,
  PlusIcon,
} from '../../../shared/ui/icons';
import { NameInput } from './NameInput';
import styles from './OrganizationTree.module.css';
import { floorHref, useSelectedFloorId } from './selection';
import { type TreeEditActions, TreeEditContext, useTreeEdit } from './treeEditContext';
import { useExpandedNodes } from './useExpandedNodes';

interface OrganizationTreeProps {
  /** Called after a floor was chosen (the layout closes the drawer on small screens). */
  onFloorSelect?: () => void;
  /** Controls the app places in the sidebar header (e.g. the Platform Settings gear). */
  headerActions?: ReactNode;
}

const RENAME_PLACEHOLDER: Record<TreeNodeType, string> = {
  organization: ORGANIZATION_NAME_PLACEHOLDER,
  building: BUILDING_NAME_PLACEHOLDER,
  floor: 'Floor name',
};

/** Does deleting `node` take the floor `floorId` with it? */
function deletesFloor(organizations: readonly Organization[], node: TreeNodeRef, floorId: string | null) {
  if (floorId === null) return false;
  const location = findFloor(organizations, floorId);
  if (!location) return false;
  if (node.type === 'floor') return location.floor._id === node.id;
  if (node.type === 'building') return location.building._id === node.id;
  return location.organization._id === node.id;
}

/**
 * Sidebar content: organizations > buildings > floors. The selected floor is the URL's. Admins
 * (roles above 1) switch on edit mode to create, rename (double-click, or F2) and delete nodes, in
 * the organizations they administer.
 */
export function OrganizationTree({ onFloorSelect, headerActions }: OrganizationTreeProps) {
  const headingId = useId();
  const user = useSessionUser();
  // Edit mode is offered to whoever administers at least one organization (or may create one).
  const canEdit = user.orgID.length > 0;
  const [editing, setEditing] = useState(false);
  const editMode = canEdit && editing;
  const organizationsQuery = useQuery(treeQueries.organizations());
  const selectedFloorId = useSelectedFloorId();
  const expansion = useExpandedNodes(organizationsQuery.data, selectedFloorId);
  const navigate = useNavigate();
  const mutations = useTreeEditing();
  const [pendingDelete, setPendingDelete] = useState<TreeNodeRef | null>(null);
  const [creatingOrganization, setCreatingOrganization] = useState(false);

  // The rows get functions that never change identity, so an edit re-renders only what it touches.
  const latest = useRef({ mutations, open: expansion.open });
  useEffect(() => {
    latest.current = { mutations, open: expansion.open };
  });
  const stableActions = useMemo(
    () => ({
      create: async (request: CreateRequest) => {
        try {
          const id = await latest.current.mutations.create.mutateAsync(request);
          // Open the new node's parent and the new node itself, so the next create is at hand.
          if (request.type === 'building') latest.current.open(request.orgID);
          if (request.type === 'floor') latest.current.open(request.buildID);
          if (id) latest.current.open(id);
          return true;
        } catch {
          return false;
        }
      },
      rename: async (node: TreeNodeRef, value: string) => {
        try {
          await latest.current.mutations.rename.mutateAsync({ node, value });
          return true;
        } catch {
          return false;
        }
      },
      requestDelete: (node: TreeNodeRef) => setPendingDelete(node),
    }),
    [],
  );
  const actions: TreeEditActions = useMemo(() => ({ editMode, ...stableActions }), [editMode, stableActions]);

  function confirmDelete(node: TreeNodeRef) {
    const clearsSelection = deletesFloor(organizationsQuery.data ?? [], node, selectedFloorId);
    mutations.remove.mutate(node, {
      onSuccess: () => {
        // The selected floor went with it: the URL must not keep naming it.
        if (clearsSelection) void navigate('/home', { replace: true });
      },
      onSettled: () => setPendingDelete(null),
    });
  }

  let body: ReactNode;
  if (organizationsQuery.isPending) {
    body = <TreeSkeleton />;
  } else if (organizationsQuery.isError) {
    body = (
      <div className={styles.message}>
        <Text as="p">The organizations could not be loaded.</Text>
        <Button size="small" onClick={() => void organizationsQuery.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    body = (
      <>
        {editMode &&
          (creatingOrganization ? (
            <NameInput
              type="organization"
              placeholder={ORGANIZATION_NAME_PLACEHOLDER}
              label="New organization name"
              depth={0}
              onSubmit={(name) => actions.create({ type: 'organization', name })}
              onCancel={() => setCreatingOrganization(false)}
            />
          ) : (
            <CreateButton depth={0} onClick={() => setCreatingOrganization(true)}>
              {CREATE_ORGANIZATION_TEXT}
            </CreateButton>
          ))}
        {organizationsQuery.data.length === 0 ? (
          <div className={styles.message}>
            <Text as="p" fontWeight={600}>
              No organizations yet
            </Text>
            <Text as="p" className={styles.muted}>
              {canEdit
                ? 'Choose Edit Organization in the menu above to create one.'
                : 'Ask an administrator to give you access to an organization.'}
            </Text>
          </div>
        ) : (
          <ul className={styles.list}>
            {organizationsQuery.data.map((organization, index) => (
              <OrganizationNode
                key={organization._id}
                groupId={`${headingId}-o${index}`}
                organization={organization}
                selectedFloorId={selectedFloorId}
                expanded={expansion.expanded}
                toggle={expansion.toggle}
                onFloorSelect={onFloorSelect}
              />
            ))}
          </ul>
        )}
      </>
    );
  }

  return (
    <TreeEditContext.Provider value={actions}>
      <nav className={styles.root} aria-labelledby={headingId} data-editing={editMode || undefined}>
        <div className={styles.header}>
          <h2 id={headingId} className={styles.heading}>
            Organizations
          </h2>
          <div className={styles.headerActions}>
            {canEdit && !editMode && (
              <Menu
                menuAlign="end"
                size="small"
                trigger={
                  <MenuButton size="small" variation="link" aria-label="Organization tree options">
                    <MoreIcon />
                  </MenuButton>
                }
              >
                <MenuItem title={EDIT_ORGANIZATION_TOOLTIP} onClick={() => setEditing(true)}>
                  {EDIT_ORGANIZATION_TEXT}
                </MenuItem>
              </Menu>
            )}
            {headerActions}
          </div>
        </div>
        {editMode && (
          <div className={styles.editBar}>
            <span className={styles.editLabel}>Editing</span>
            <Button
              size="small"
              variation="primary"
              className={styles.doneButton}
              onClick={() => setEditing(false)}
            >
              {EDIT_DONE_TEXT}
            </Button>
          </div>
        )}
        <div className={styles.body}>
          {body}
          {mutations.create.isPending && (
            <div className={styles.overlay} role="status" aria-live="polite">
              <Loader size="large" ariaLabel="Creating" />
            </div>
          )}
        </div>
      </nav>
      {canEdit && (
        <DeleteDialog
          node={pendingDelete}
          deleting={mutations.remove.isPending}
          onCancel={() => setPendingDelete(null)}
          onConfirm={confirmDelete}
        />
      )}
    </TreeEditContext.Provider>
  );
}

function CreateButton({
  depth,
  onClick,
  children,
}: {
  depth: 0 | 1 | 2;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button type="button" className={styles.createButton} data-depth={depth} onClick={onClick}>
      <PlusIcon size={14} />
      {children}
    </button>
  );
}

interface RowProps {
  node: TreeNodeRef;
  depth: 0 | 1 | 2;
  /** The row's main control (toggle button or floor link), given its double-click / F2 handlers. */
  children: (edit: { onDoubleClick?: () => void; onKeyDown?: (event: KeyboardEvent) => void }) => ReactNode;
}

/** A row of the tree; in edit mode with inline rename and a delete button. */
function NodeRow({ node, depth, children }: RowProps) {
  const { editMode, rename, requestDelete } = useTreeEdit();
  const [renaming, setRenaming] = useState(false);
  if (editMode && renaming) {
    return (
      <NameInput
        type={node.type}
        placeholder={RENAME_PLACEHOLDER[node.type]}
        label={`New name for ${node.name}`}
        initialValue={node.name}
        depth={depth}
        onSubmit={(value) => rename(node, value)}
        onCancel={() => setRenaming(false)}
      />
    );
  }
  if (!editMode) return <>{children({})}</>;
  return (
    <div className={styles.row}>
      {children({
        onDoubleClick: () => setRenaming(true),
        onKeyDown: (event) => {
          if (event.key === 'F2') {
            event.preventDefault();
            setRenaming(true);
          }
        },
      })}
      <button
        type="button"
        className={styles.iconButton}
        aria-label={`Delete ${node.name}`}
        title="Delete"
        onClick={() => requestDelete(node)}
      >
        <CloseIcon size={14} />
      </button>
    </div>
  );
}

interface NodeProps {
  groupId: string;
  selectedFloorId: string | null;
  expanded: ReadonlySet<string>;
  toggle: (id: string) => void;
  onFloorSelect: (() => void) | undefined;
}

/** Rows render again only when what they show changed (many organizations stay cheap). */
function sameOrganizationProps(
  a: NodeProps & { organization: Organization },
  b: NodeProps & { organization: Organization },
) {
  if (a.organization !== b.organization || a.groupId !== b.groupId || a.toggle !== b.toggle) return false;
  if (a.onFloorSelect !== b.onFloorSelect) return false;
  const id = b.organization._id;
  if (a.expanded.has(id) !== b.expanded.has(id)) return false;
  if (!b.expanded.has(id)) return true; // closed: nothing under it is rendered
  if (a.selectedFloorId !== b.selectedFloorId) return false;
  return b.organization.buildData.every(
    (building) => a.expanded.has(building._id) === b.expanded.has(building._id),
  );
}

const OrganizationNode = memo(function OrganizationNode({
  organization,
  groupId,
  expanded,
  toggle,
  selectedFloorId,
  onFloorSelect,
}: NodeProps & { organization: Organization }) {
  const treeActions = useTreeEdit();
  const user = useSessionUser();
  // Rights belong to memberships: edit controls only in the organizations the user administers.
  const mayEdit = administers(user, organization._id);
  const orgActions = useMemo(
    () => ({ ...treeActions, editMode: treeActions.editMode && mayEdit }),
    [treeActions, mayEdit],
  );
  const { editMode, create } = orgActions;
  const [creating, setCreating] = useState(false);
  const open = expanded.has(organization._id);
  const node: TreeNodeRef = {
    type: 'organization',
    id: organization._id,
    name: organization.orgName,
    version: organization.version,
  };
  return (
    <TreeEditContext.Provider value={orgActions}>
      <li>
        <NodeRow node={node} depth={0}>
          {(edit) => (
            <button
              type="button"
              className={styles.node}
              aria-expanded={open}
              aria-controls={open ? groupId : undefined}
              aria-label={organization.orgName}
              onClick={() => toggle(organization._id)}
              {...edit}
            >
              <ChevronRightIcon className={styles.chevron} size={14} />
              <OrganizationIcon className={styles.icon} />
              <span className={styles.label} title={organization.orgName}>
                {truncateName(organization.orgName)}
              </span>
            </button>
          )}
        </NodeRow>
        {open && (
          <ul id={groupId} className={styles.list}>
            {organization.buildData.length === 0 && !editMode && (
              <li className={styles.emptyLeaf}>No buildings</li>
            )}
            {organization.buildData.map((building, index) => (
              <BuildingNode
                key={building._id}
                groupId={`${groupId}-b${index}`}
                building={building}
                open={expanded.has(building._id)}
                toggle={toggle}
                selectedFloorId={selectedFloorId}
                onFloorSelect={onFloorSelect}
              />
            ))}
            {editMode && (
              <li>
                {creating ? (
                  <NameInput
                    type="building"
                    placeholder={ADD_BUILDING_PLACEHOLDER}
                    label={`New building name in ${organization.orgName}`}
                    depth={1}
                    onSubmit={(name) => create({ type: 'building', orgID: organization._id, name })}
                    onCancel={() => setCreating(false)}
                  />
                ) : (
                  <CreateButton depth={1} onClick={() => setCreating(true)}>
                    {CREATE_BUILDING_TEXT}
                  </CreateButton>
                )}
              </li>
            )}
          </ul>
        )}
      </li>
    </TreeEditContext.Provider>
  );
}, sameOrganizationProps);

interface BuildingNodeProps {
  groupId: string;
  building: Building;
  open: boolean;
  toggle: (id: string) => void;
  selectedFloorId: string | null;
  onFloorSelect: (() => void) | undefined;
}

const BuildingNode = memo(function BuildingNode({
  building,
  groupId,
  open,
  toggle,
  selectedFloorId,
  onFloorSelect,
}: BuildingNodeProps) {
  const { editMode, create } = useTreeEdit();
  const [creating, setCreating] = useState(false);
  const node: TreeNodeRef = {
    type: 'building',
    id: building._id,
    name: building.buildName,
    version: building.version,
  };
  return (
    <li>
      <NodeRow node={node} depth={1}>
        {(edit) => (
          <button
            type="button"
            className={styles.node}
            data-depth="1"
            aria-expanded={open}
            aria-controls={open ? groupId : undefined}
            onClick={() => toggle(building._id)}
            {...edit}
          >
            <ChevronRightIcon className={styles.chevron} size={14} />
            <BuildingIcon className={styles.icon} />
            {/* Named by its content: the whole name and what the count says, where the eye reads the
                name cut at 20 characters and the bare count. */}
            <span className={styles.label} title={building.buildName} aria-hidden="true">
              {truncateName(building.buildName)}
            </span>
            <VisuallyHidden>
              {building.buildName}, {building.floors.length}{' '}
              {building.floors.length === 1 ? 'floor' : 'floors'}
            </VisuallyHidden>
            <span className={styles.count} aria-hidden="true">
              {building.floors.length}
            </span>
          </button>
        )}
      </NodeRow>
      {open && (
        <ul id={groupId} className={styles.list}>
          {building.floors.length === 0 && !editMode && (
            <li className={styles.emptyLeaf} data-depth="2">
              No floors
            </li>
          )}
          {building.floors.map((floor) => (
            <FloorNode
              key={floor._id}
              floor={floor}
              selected={floor._id === selectedFloorId}
              onFloorSelect={onFloorSelect}
            />
          ))}
          {editMode && (
            <li>
              {creating ? (
                <NameInput
                  type="floor"
                  placeholder={ADD_FLOOR_PLACEHOLDER}
                  label={`New floor name in ${building.buildName}`}
                  depth={2}
                  onSubmit={(name) => create({ type: 'floor', buildID: building._id, name })}
                  onCancel={() => setCreating(false)}
                />
              ) : (
                <CreateButton depth={2} onClick={() => setCreating(true)}>
                  {CREATE_FLOOR_TEXT}
                </CreateButton>
              )}
            </li>
          )}
        </ul>
      )}
    </li>
  );
});

const FloorNode = memo(function FloorNode({
  floor,
  selected,
  onFloorSelect,
}: {
  floor: Floor;
  selected: boolean;
  onFloorSelect: (() => void) | undefined;
}) {
  const node: TreeNodeRef = { type: 'floor', id: floor._id, name: floor.floorName, version: floor.version };
  return (
    <li>
      <NodeRow node={node} depth={2}>
        {(edit) => (
          <Link
            to={floorHref(floor._id)}
            className={styles.floor}
            aria-current={selected ? 'page' : undefined}
            aria-label={floor.floorName}
            onClick={onFloorSelect}
            {...edit}
          >
            <FloorIcon className={styles.icon} />
            <span className={styles.label} title={floor.floorName}>
              {truncateName(floor.floorName)}
            </span>
          </Link>
        )}
      </NodeRow>
    </li>
  );
});

function TreeSkeleton() {
  const widths = ['70%', '55%', '62%', '48%', '66%', '52%'];
  return (
    <div className={styles.skeleton} role="status" aria-label="Loading organizations">
      {widths.map((width, index) => (
        <Placeholder
          key={index}
          size="small"
          width={width}
          marginInlineStart={index % 3 === 0 ? 0 : '1rem'}
        />
      ))}
    </div>
  );
}
