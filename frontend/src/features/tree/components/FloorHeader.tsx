import { Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { FLOOR_TITLE_EMPTY_TEXT } from '@argentum/contracts';
import { Link } from 'react-router';
import { administers, useSessionUser } from '../../../shared/session/sessionStore';
import { useTreeEditing } from '../api/treeEditing';
import { findFloor, treeQueries } from '../api/treeQueries';
import type { FloorLocation } from '../api/types';
import { PencilIcon } from '../../../shared/ui/icons';
import styles from './FloorHeader.module.css';
import { NameInput } from './NameInput';

/** Heading of the main area for the selected floor: organization / building breadcrumb and floor name. */
export function FloorHeader({ floorId }: { floorId: string }) {
  const organizationsQuery = useQuery(treeQueries.organizations());

  if (organizationsQuery.isPending) {
    return (
      <header className={styles.header} role="status" aria-label="Loading floor">
        <Placeholder size="small" width="14rem" />
        <Placeholder size="large" width="20rem" marginBlockStart="0.75rem" />
      </header>
    );
  }

  // A failed load is reported by the sidebar (and by a toast for server errors).
  if (organizationsQuery.isError) return null;

  const location = findFloor(organizationsQuery.data, floorId);
  if (!location) {
    return (
      <header className={styles.header}>
        <h1 className={styles.title}>Floor not found</h1>
        <Text as="p" className={styles.note}>
          This floor does not exist or you do not have access to it.{' '}
          <Link to="/home">Back to the start page</Link>
        </Text>
      </header>
    );
  }

  const { organization, building, floor } = location;
  return (
    <header className={styles.header}>
      <nav aria-label="Breadcrumb">
        <ol className={styles.breadcrumb}>
          <li>{organization.orgName}</li>
          <li>{building.buildName}</li>
          <li aria-current="page">{floor.floorName}</li>
        </ol>
      </nav>
      <FloorTitle location={location} />
    </header>
  );
}

/** The floor name; admins of its organization get an edit icon to rename it inline (saved on confirm). */
function FloorTitle({ location }: { location: FloorLocation }) {
  const user = useSessionUser();
  const { renameFloor } = useTreeEditing();
  const [editing, setEditing] = useState(false);
  const { floor } = location;

  if (editing) {
    return (
      <div className={styles.rename}>
        <NameInput
          type="floor"
          placeholder="Floor name"
          label="Floor name"
          initialValue={floor.floorName}
          emptyText={FLOOR_TITLE_EMPTY_TEXT}
          depth={0}
          onSubmit={async (floorName) => {
            try {
              await renameFloor.mutateAsync({
                orgID: floor.orgID,
                floorID: floor._id,
                floorName,
                version: floor.version,
              });
              return true;
            } catch {
              return false;
            }
          }}
          onCancel={() => setEditing(false)}
        />
      </div>
    );
  }
  return (
    <div className={styles.titleRow}>
      <h1 className={styles.title}>{floor.floorName}</h1>
      {administers(user, floor.orgID) && (
        <button
          type="button"
          className={styles.editButton}
          aria-label="Edit floor name"
          title="Edit floor name"
          onClick={() => setEditing(true)}
        >
          <PencilIcon size={16} />
        </button>
      )}
    </div>
  );
}
