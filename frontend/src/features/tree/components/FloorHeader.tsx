import { Placeholder, Text } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { findFloor, treeQueries } from '../api/treeQueries';
import styles from './FloorHeader.module.css';

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
      <h1 className={styles.title}>{floor.floorName}</h1>
    </header>
  );
}
