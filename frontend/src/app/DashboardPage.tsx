import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useEffect, useId, useState } from 'react';
import { FloorView } from '../features/floor-plan';
import { orgLogoQueries } from '../features/org-logo';
import { PlatformSettings } from '../features/settings';
import { findFloor, FloorHeader, OrganizationTree, treeQueries, useSelectedFloorId } from '../features/tree';
import { useSessionUser } from '../shared/session/sessionStore';
import { PRODUCT_NAME, SELECT_FLOOR_PROMPT_TEXT } from '@argentum/contracts';
import { Placeholder } from '@aws-amplify/ui-react';
import { AppTopBar } from './AppTopBar';
import styles from './DashboardPage.module.css';
import { useRealtimeFeeds } from './realtimeFeeds';

const WELCOME_TEXT = 'Welcome to Argentum. Select an organization from the sidebar to start.';

/** /home: top bar, organization tree in the sidebar (a drawer on small screens), selected floor. */
export function DashboardPage() {
  const user = useSessionUser();
  const selectedFloorId = useSelectedFloorId();
  const queryClient = useQueryClient();
  const organizations = useQuery(treeQueries.organizations()).data ?? [];
  // The logo of the selected floor's organization, else of the user's first organization.
  const selectedFloor = selectedFloorId === null ? null : findFloor(organizations, selectedFloorId);
  useRealtimeFeeds(
    user,
    selectedFloor ? { orgId: selectedFloor.organization.orgID, floorId: selectedFloor.floor._id } : null,
  );
  const sidebarId = useId();
  const [drawerOpen, setDrawerOpen] = useState(false);

  useEffect(() => {
    if (!drawerOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDrawerOpen(false);
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [drawerOpen]);

  return (
    <div className={styles.shell}>
      <title>{PRODUCT_NAME}</title>
      <AppTopBar
        logoOrgId={selectedFloor?.organization.orgID}
        sidebar={{ id: sidebarId, open: drawerOpen, onToggle: () => setDrawerOpen((open) => !open) }}
      />
      <div className={styles.body}>
        <aside id={sidebarId} className={styles.sidebar} data-open={drawerOpen || undefined}>
          <OrganizationTree
            onFloorSelect={() => setDrawerOpen(false)}
            headerActions={
              user.orgID.length > 0 && (
                <PlatformSettings
                  // Settings act only in the organizations the user administers.
                  organizations={organizations.filter((o) => user.orgID.includes(o.orgID))}
                  onLogoUploaded={(orgId) =>
                    void queryClient.invalidateQueries({ queryKey: orgLogoQueries.logo(orgId).queryKey })
                  }
                />
              )
            }
          />
        </aside>
        {drawerOpen && (
          <button
            type="button"
            className={styles.backdrop}
            aria-label="Hide organizations"
            tabIndex={-1}
            onClick={() => setDrawerOpen(false)}
          />
        )}
        <main className={styles.main}>
          {selectedFloorId === null ? (
            <div className={styles.welcome}>
              <p>{WELCOME_TEXT}</p>
              <p>{SELECT_FLOOR_PROMPT_TEXT}</p>
            </div>
          ) : (
            <>
              <FloorHeader floorId={selectedFloorId} />
              {selectedFloor && (
                <Suspense
                  fallback={
                    <div className={styles.floorLoading} role="status" aria-label="Loading floor plan">
                      <Placeholder size="large" height="100%" />
                    </div>
                  }
                >
                  <FloorView
                    floor={{
                      floorId: selectedFloor.floor._id,
                      orgId: selectedFloor.organization.orgID,
                      buildId: selectedFloor.building._id,
                      floorName: selectedFloor.floor.floorName,
                      floorDevTypes: selectedFloor.floor.floorDevTypes,
                    }}
                  />
                </Suspense>
              )}
            </>
          )}
        </main>
      </div>
    </div>
  );
}
