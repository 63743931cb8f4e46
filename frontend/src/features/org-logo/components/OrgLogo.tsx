import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { orgLogoQueries } from '../api/orgLogoQueries';
import styles from './OrgLogo.module.css';

interface OrgLogoProps {
  orgId: string;
  /** For the image's alternative text. */
  orgName?: string;
}

/** An organization's logo; nothing at all when it has none or it cannot be loaded. */
export function OrgLogo({ orgId, orgName }: OrgLogoProps) {
  const queryClient = useQueryClient();
  const logo = useQuery(orgLogoQueries.logo(orgId));
  // A URL that does not load (it expired) is hidden; the first time, a fresh one is fetched.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  if (!logo.data || logo.data.data === failedUrl) return null;
  const url = logo.data.data;
  return (
    <span className={styles.frame}>
      <img
        className={styles.image}
        src={url}
        alt={orgName ? `${orgName} logo` : 'Organization logo'}
        onError={() => {
          if (failedUrl === null)
            void queryClient.invalidateQueries({ queryKey: orgLogoQueries.logo(orgId).queryKey });
          setFailedUrl(url);
        }}
      />
    </span>
  );
}
