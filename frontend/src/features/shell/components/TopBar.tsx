import { Menu, MenuButton, MenuItem } from '@aws-amplify/ui-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { roleName } from '@argentum/contracts';
import { useSessionUser } from '../../../shared/session/sessionStore';
import { PRODUCT_NAME } from '@argentum/contracts';
import { ChevronDownIcon, DocumentIcon, MenuIcon, UserIcon } from '../../../shared/ui/icons';
import styles from './TopBar.module.css';

interface TopBarProps {
  /** id of the sidebar element the menu toggle shows and hides on small screens (a screen without one has no toggle). */
  sidebarId?: string | undefined;
  sidebarOpen?: boolean;
  onToggleSidebar?: (() => void) | undefined;
  onLogOut: () => void;
  loggingOut: boolean;
  /** Account entries (Change Username, Change Password) the app composes into the user menu. */
  accountMenuItems?: ReactNode;
  /** The organization logo the app composes next to the product name. */
  logo?: ReactNode;
  /** The notifications bell the app composes at the start of the actions. */
  notifications?: ReactNode;
}

export function TopBar({
  sidebarId,
  sidebarOpen = false,
  onToggleSidebar,
  onLogOut,
  loggingOut,
  accountMenuItems,
  logo,
  notifications,
}: TopBarProps) {
  const user = useSessionUser();
  const displayName = user.userName || user.email;

  return (
    <header className={styles.bar}>
      {onToggleSidebar && (
        <button
          type="button"
          className={styles.sidebarToggle}
          aria-label={sidebarOpen ? 'Hide organizations' : 'Show organizations'}
          aria-expanded={sidebarOpen}
          aria-controls={sidebarId}
          onClick={onToggleSidebar}
        >
          <MenuIcon size={20} />
        </button>
      )}

      <Link to="/home" className={styles.brand}>
        {PRODUCT_NAME}
      </Link>
      {logo && <div className={styles.logo}>{logo}</div>}

      <div className={styles.actions}>
        {notifications}
        <Link to="/api-docs" className={styles.navLink} aria-label="API documentation">
          <DocumentIcon />
          <span className={styles.hideOnNarrow}>API documentation</span>
          <span className={styles.showOnNarrow}>API</span>
        </Link>

        <Menu
          menuAlign="end"
          size="small"
          trigger={
            <MenuButton className={styles.userButton} aria-label={`Account menu for ${displayName}`}>
              <span className={styles.avatar} aria-hidden="true">
                <UserIcon size={14} />
              </span>
              <span className={styles.userName}>{displayName}</span>
              <ChevronDownIcon size={14} />
            </MenuButton>
          }
        >
          <div className={styles.menuHeader}>
            <span className={styles.menuName}>{displayName}</span>
            {user.email && user.email !== displayName && (
              <span className={styles.menuMeta}>{user.email}</span>
            )}
            <span className={styles.menuMeta}>{roleName(user.roles)}</span>
          </div>
          {accountMenuItems}
          <MenuItem onClick={onLogOut} isDisabled={loggingOut}>
            Log out
          </MenuItem>
        </Menu>
      </div>
    </header>
  );
}
