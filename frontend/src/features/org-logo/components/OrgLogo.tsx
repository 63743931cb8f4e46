import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { orgLogoQueries } from '../api/orgLogoQueries';
import styles from './OrgLogo.module.css';

interface OrgLogoProps {
  orgId: string;
  /** For the image's alternative text. */
  orgName?: string;
}

/**
 * An organization's logo; nothing at all when it has none or it cannot be loaded. Its white frame
 * shows only once the image has loaded, so a page does not open with an empty frame that then grows.
 */
export function OrgLogo({ orgId, orgName }: OrgLogoProps) {
  const queryClient = useQueryClient();
  const logo = useQuery(orgLogoQueries.logo(orgId));
  // A URL that does not load (it expired) is hidden; the first time, a fresh one is fetched.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  // Once shown, it stays while a fresh URL of it loads (the image keeps the old one until then).
  const [loaded, setLoaded] = useState(false);
  const url = logo.data?.data;
  if (!url || url === failedUrl) return null;
  return (
    <span className={styles.frame} data-loaded={loaded}>
      <img
        className={styles.image}
        src={url}
        alt={orgName ? `${orgName} logo` : 'Organization logo'}
        onLoad={() => setLoaded(true)}
        onError={() => {
          if (failedUrl === null)
            void queryClient.invalidateQueries({ queryKey: orgLogoQueries.logo(orgId).queryKey });
          setFailedUrl(url);
        }}
      />
    </span>
  );
}
