import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useAccountMenu } from '../features/account';
import { useLogoutMutation } from '../features/auth';
import { NotificationBell } from '../features/notifications';
import { OrgLogo } from '../features/org-logo';
import { TopBar } from '../features/shell';
import { floorHref, treeQueries } from '../features/tree';
import { useSessionUser } from '../shared/session/sessionStore';

interface AppTopBarProps {
  /** The organization whose logo shows (the open floor's); else the user's first organization. */
  logoOrgId?: string | undefined;
  /** The organization tree's toggle on small screens, where the screen has the tree. */
  sidebar?: { id: string; open: boolean; onToggle: () => void };
}

/** The top bar every signed-in screen shows: logo, notifications bell, account menu, log out. */
export function AppTopBar({ logoOrgId, sidebar }: AppTopBarProps) {
  const user = useSessionUser();
  const logout = useLogoutMutation();
  const account = useAccountMenu();
  const navigate = useNavigate();
  const organizations = useQuery(treeQueries.organizations()).data ?? [];
  const orgId =
    logoOrgId || organizations.find((o) => o.orgID === user.org[0])?.orgID || organizations[0]?.orgID;
  const orgName = organizations.find((o) => o.orgID === orgId)?.orgName;
  return (
    <>
      <TopBar
        sidebarId={sidebar?.id}
        sidebarOpen={sidebar?.open ?? false}
        onToggleSidebar={sidebar?.onToggle}
        onLogOut={() => logout.mutate(user.id)}
        loggingOut={logout.isPending}
        accountMenuItems={account.menuItems}
        logo={orgId && <OrgLogo key={orgId} orgId={orgId} orgName={orgName} />}
        notifications={
          <NotificationBell
            // Opens the device's floor (if another is open) and highlights the device there.
            onViewDevice={({ floorID, devID }) =>
              void navigate(`${floorHref(floorID)}&${new URLSearchParams({ highlight: devID }).toString()}`)
            }
          />
        }
      />
      {account.dialogs}
    </>
  );
}
