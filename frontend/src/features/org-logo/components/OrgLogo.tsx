import { useQuery } from '@tanstack/react-query';
import { orgLogoQueries } from '../api/orgLogoQueries';
import styles from './OrgLogo.module.css';

interface OrgLogoProps {
  orgId: string;
  /** For the image's alternative text. */
  orgName?: string;
}

/** An organization's logo; nothing at all when it has none or it cannot be loaded. */
export function OrgLogo({ orgId, orgName }: OrgLogoProps) {
  const logo = useQuery(orgLogoQueries.logo(orgId));
  if (!logo.data) return null;
  return (
    <span className={styles.frame}>
      <img
        className={styles.image}
        src={logo.data.data}
        alt={orgName ? `${orgName} logo` : 'Organization logo'}
      />
    </span>
  );
}
