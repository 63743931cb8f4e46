import { Button, Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { Link } from 'react-router';
import { truncateName } from '../../../shared/domain/names';
import { BuildingIcon, ChevronRightIcon, FloorIcon, OrganizationIcon } from '../../../shared/ui/icons';
import { treeQueries } from '../api/treeQueries';
import type { Building, Organization } from '../api/types';
import styles from './OrganizationTree.module.css';
import { floorHref, useSelectedFloorId } from './selection';
import { useExpandedNodes } from './useExpandedNodes';

interface OrganizationTreeProps {
  /** Called after a floor was chosen (the layout closes the drawer on small screens). */
  onFloorSelect?: () => void;
  /** Controls the app places in the sidebar header (e.g. the Platform Settings gear). */
  headerActions?: ReactNode;
}

/** Sidebar content: organizations > buildings > floors. The selected floor is the URL's. */
export function OrganizationTree({ onFloorSelect, headerActions }: OrganizationTreeProps) {
  const headingId = useId();
  const organizationsQuery = useQuery(treeQueries.organizations());
  const selectedFloorId = useSelectedFloorId();
  const expansion = useExpandedNodes(organizationsQuery.data, selectedFloorId);

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
  } else if (organizationsQuery.data.length === 0) {
    body = (
      <div className={styles.message}>
        <Text as="p" fontWeight={600}>
          No organizations yet
        </Text>
        <Text as="p" className={styles.muted}>
          Ask an administrator to give you access to an organization.
        </Text>
      </div>
    );
  } else {
    body = (
      <ul className={styles.list}>
        {organizationsQuery.data.map((organization, index) => (
          <OrganizationNode
            key={organization._id}
            groupId={`${headingId}-o${index}`}
            organization={organization}
            selectedFloorId={selectedFloorId}
            expansion={expansion}
            onFloorSelect={onFloorSelect}
          />
        ))}
      </ul>
    );
  }

  return (
    <nav className={styles.root} aria-labelledby={headingId}>
      <div className={styles.header}>
        <h2 id={headingId} className={styles.heading}>
          Organizations
        </h2>
        {headerActions && <div className={styles.headerActions}>{headerActions}</div>}
      </div>
      <div className={styles.body}>{body}</div>
    </nav>
  );
}

interface NodeProps {
  groupId: string;
  selectedFloorId: string | null;
  expansion: ReturnType<typeof useExpandedNodes>;
  onFloorSelect: (() => void) | undefined;
}

function OrganizationNode({
  organization,
  groupId,
  expansion,
  ...rest
}: NodeProps & { organization: Organization }) {
  const open = expansion.isExpanded(organization._id);
  return (
    <li>
      <button
        type="button"
        className={styles.node}
        aria-expanded={open}
        aria-controls={groupId}
        aria-label={organization.orgName}
        onClick={() => expansion.toggle(organization._id)}
      >
        <ChevronRightIcon className={styles.chevron} size={14} />
        <OrganizationIcon className={styles.icon} />
        <span className={styles.label} title={organization.orgName}>
          {truncateName(organization.orgName)}
        </span>
      </button>
      <ul id={groupId} className={styles.list} hidden={!open}>
        {organization.buildData.length === 0 && <li className={styles.emptyLeaf}>No buildings</li>}
        {organization.buildData.map((building, index) => (
          <BuildingNode
            key={building._id}
            groupId={`${groupId}-b${index}`}
            building={building}
            expansion={expansion}
            {...rest}
          />
        ))}
      </ul>
    </li>
  );
}

function BuildingNode({
  building,
  groupId,
  expansion,
  selectedFloorId,
  onFloorSelect,
}: NodeProps & { building: Building }) {
  const open = expansion.isExpanded(building._id);
  return (
    <li>
      <button
        type="button"
        className={styles.node}
        data-depth="1"
        aria-expanded={open}
        aria-controls={groupId}
        aria-label={building.buildName}
        onClick={() => expansion.toggle(building._id)}
      >
        <ChevronRightIcon className={styles.chevron} size={14} />
        <BuildingIcon className={styles.icon} />
        <span className={styles.label} title={building.buildName}>
          {truncateName(building.buildName)}
        </span>
        <span className={styles.count} aria-hidden="true">
          {building.floors.length}
        </span>
      </button>
      <ul id={groupId} className={styles.list} hidden={!open}>
        {building.floors.length === 0 && (
          <li className={styles.emptyLeaf} data-depth="2">
            No floors
          </li>
        )}
        {building.floors.map((floor) => (
          <li key={floor._id}>
            <Link
              to={floorHref(floor._id)}
              className={styles.floor}
              aria-current={floor._id === selectedFloorId ? 'page' : undefined}
              aria-label={floor.floorName}
              onClick={onFloorSelect}
            >
              <FloorIcon className={styles.icon} />
              <span className={styles.label} title={floor.floorName}>
                {truncateName(floor.floorName)}
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </li>
  );
}

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
