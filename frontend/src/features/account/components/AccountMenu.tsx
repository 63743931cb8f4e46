import { MenuItem } from '@aws-amplify/ui-react';
import { useCallback, useState } from 'react';
import { Dialog } from '../../../shared/ui/Dialog';
import { ChangePasswordForm } from './ChangePasswordForm';
import { ChangeUsernameForm } from './ChangeUsernameForm';
import { ThemePanel } from './ThemePanel';

type OpenDialog = 'username' | 'password' | 'theme' | null;

/**
 * The account entries of the user menu and their dialogs. The app layer places `menuItems` in the
 * top bar's user menu and renders `dialogs` once.
 */
export function useAccountMenu() {
  const [open, setOpen] = useState<OpenDialog>(null);
  const close = useCallback(() => setOpen(null), []);

  // Sized like the menu's own items: the menu sizes only its direct children.
  const menuItems = (
    <>
      <MenuItem size="small" onClick={() => setOpen('username')}>
        Change Username
      </MenuItem>
      <MenuItem size="small" onClick={() => setOpen('password')}>
        Change Password
      </MenuItem>
      <MenuItem size="small" onClick={() => setOpen('theme')}>
        Dark Mode
      </MenuItem>
    </>
  );

  const dialogs = (
    <>
      <Dialog title="Change Username" open={open === 'username'} onClose={close}>
        <ChangeUsernameForm onDone={close} />
      </Dialog>
      <Dialog title="Change Password" open={open === 'password'} onClose={close}>
        <ChangePasswordForm onDone={close} />
      </Dialog>
      <Dialog title="Dark Mode" open={open === 'theme'} onClose={close}>
        <ThemePanel />
      </Dialog>
    </>
  );

  return { menuItems, dialogs };
}
