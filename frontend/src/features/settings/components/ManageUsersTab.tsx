import {
  Button,
  CheckboxField,
  Pagination,
  SelectField,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
} from '@aws-amplify/ui-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { assignableRoles, toRole, Role, roleName, type RoleNumber } from '@argentum/contracts';
import { type SessionUser, useSessionUser } from '../../../shared/session/sessionStore';
import {
  CHANGE_USER_ACCESS_TITLE,
  DELETE_USER_TITLE,
  deleteUserQuestion,
  SETTINGS_SOMETHING_WRONG_TEXT,
  USER_DELETED_TEXT,
  USER_ROLE_UPDATED_TEXT,
  USERS_PAGE_SIZE,
} from '@argentum/contracts';
import { showToast } from '../../../shared/ui/toastStore';
import { settingsMutations, settingsQueries } from '../api/settingsApi';
import type { AdminOrganization, ManagedUser } from '../api/types';
import { Dialog } from '../../../shared/ui/Dialog';
import { OrganizationChecklist } from './OrganizationChecklist';
import styles from './Settings.module.css';

/**
 * The role the administrator grants with: their own in the chosen organizations (the lowest, since
 * the role is granted in each of them), or their highest when none is chosen yet.
 */
function granterRole(me: SessionUser, orgIds: readonly string[]): RoleNumber {
  const own = orgIds.map((orgId) => me.orgRoles[orgId] ?? Role.readOnly);
  return own.length > 0 ? (Math.min(...own) as RoleNumber) : me.roles;
}

const displayName = (user: ManagedUser) => user.userName || user.email;

/** The user's roles in the shared organizations: one name when they are the same everywhere. */
const rolesText = (user: ManagedUser) =>
  [...new Set(user.org.map((orgId) => roleName(user.orgRoles[orgId] ?? user.roles)))].join(', ') ||
  roleName(user.roles);

/** Manage Users: the administrator's users, five to a page, with access changes and deletion. */
export function ManageUsersTab({ organizations }: { organizations: readonly AdminOrganization[] }) {
  const users = useQuery(settingsQueries.users());
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [editing, setEditing] = useState<ManagedUser | null>(null);
  const [deleting, setDeleting] = useState<ManagedUser[] | null>(null);

  if (users.isPending) return <p className={styles.muted}>Loading users…</p>;
  if (users.isError) {
    return (
      <div className={styles.form}>
        <p>The users could not be loaded.</p>
        <Button size="small" onClick={() => void users.refetch()}>
          Try again
        </Button>
      </div>
    );
  }

  const all = users.data;
  const totalPages = Math.max(1, Math.ceil(all.length / USERS_PAGE_SIZE));
  const currentPage = Math.min(page, totalPages);
  const rows = all.slice((currentPage - 1) * USERS_PAGE_SIZE, currentPage * USERS_PAGE_SIZE);
  const selectable = rows.filter((user) => user.deletable);
  const pageSelected = selectable.length > 0 && selectable.every((user) => selected.includes(user.id));
  const selectedUsers = all.filter((user) => selected.includes(user.id));
  const orgName = (id: string) => organizations.find((o) => o.orgID === id)?.orgName ?? id;

  return (
    <div className={styles.form}>
      <div className={styles.toolbar}>
        <span className={styles.muted}>
          {all.length === 1 ? '1 user' : `${all.length} users`}
          {selectedUsers.length > 0 && `, ${selectedUsers.length} selected`}
        </span>
        <Button
          size="small"
          variation="destructive"
          isDisabled={selectedUsers.length === 0}
          onClick={() => setDeleting(selectedUsers)}
        >
          Delete selected
        </Button>
      </div>
      <div className={styles.tableWrap}>
        <Table size="small" highlightOnHover className={styles.table} aria-label="Users">
          <TableHead>
            <TableRow>
              <TableCell as="th" className={styles.selectCell}>
                <CheckboxField
                  label="Select all users on this page"
                  labelHidden
                  name="select-page"
                  value="page"
                  checked={pageSelected}
                  isDisabled={selectable.length === 0}
                  onChange={(event) => {
                    const ids = selectable.map((user) => user.id);
                    setSelected((current) =>
                      event.target.checked
                        ? [...new Set([...current, ...ids])]
                        : current.filter((id) => !ids.includes(id)),
                    );
                  }}
                />
              </TableCell>
              <TableCell as="th">Name</TableCell>
              <TableCell as="th">Roles</TableCell>
              <TableCell as="th">Email</TableCell>
              <TableCell as="th">Organizations</TableCell>
              <TableCell as="th">Actions</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((user) => (
              <TableRow key={user.id} data-selected={selected.includes(user.id) || undefined}>
                <TableCell className={styles.selectCell}>
                  <CheckboxField
                    label={`Select ${displayName(user)}`}
                    labelHidden
                    name="select-user"
                    value={user.id}
                    checked={selected.includes(user.id)}
                    isDisabled={!user.deletable}
                    onChange={(event) =>
                      setSelected((current) =>
                        event.target.checked ? [...current, user.id] : current.filter((id) => id !== user.id),
                      )
                    }
                  />
                </TableCell>
                <TableCell>{user.userName || '—'}</TableCell>
                <TableCell>{rolesText(user)}</TableCell>
                <TableCell className={styles.emailCell}>{user.email}</TableCell>
                <TableCell>
                  {user.org.map(orgName).join(', ')}
                  {user.otherOrgCount > 0 && (
                    <span className={styles.muted}>
                      {user.org.length > 0 ? ' ' : ''}+{user.otherOrgCount} other
                    </span>
                  )}
                </TableCell>
                <TableCell>
                  <div className={styles.rowActions}>
                    <button
                      type="button"
                      className={styles.iconButton}
                      aria-label={`Edit access of ${displayName(user)}`}
                      title={user.editable ? 'Edit access' : 'You cannot change this user'}
                      disabled={!user.editable}
                      onClick={() => setEditing(user)}
                    >
                      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                        <path d="M4 20h4L18.5 9.5a2.1 2.1 0 0 0-4-4L4 16v4ZM13.5 6.5l4 4" />
                      </svg>
                    </button>
                    <button
                      type="button"
                      className={styles.iconButton}
                      data-danger
                      aria-label={`Delete ${displayName(user)}`}
                      title={
                        user.deletable
                          ? 'Delete user'
                          : user.editable
                            ? 'This user also belongs to organizations you do not administer'
                            : 'You cannot delete this user'
                      }
                      disabled={!user.deletable}
                      onClick={() => setDeleting([user])}
                    >
                      <svg width="16" height="16" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
                        <path d="M4 7h16M10 11v6M14 11v6M5 7l1 13h12l1-13M9 7V4h6v3" />
                      </svg>
                    </button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {totalPages > 1 && (
        <Pagination
          currentPage={currentPage}
          totalPages={totalPages}
          onChange={(next) => setPage(next ?? 1)}
          onNext={() => setPage(Math.min(totalPages, currentPage + 1))}
          onPrevious={() => setPage(Math.max(1, currentPage - 1))}
        />
      )}
      {editing && (
        <ChangeAccessDialog user={editing} organizations={organizations} onClose={() => setEditing(null)} />
      )}
      {deleting && (
        <DeleteUsersDialog
          users={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() =>
            setSelected((current) => current.filter((id) => !deleting.some((u) => u.id === id)))
          }
        />
      )}
    </div>
  );
}

function ChangeAccessDialog({
  user,
  organizations,
  onClose,
}: {
  user: ManagedUser;
  organizations: readonly AdminOrganization[];
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const me = useSessionUser();
  const setAccess = useMutation(settingsMutations.setAccess(queryClient));
  const [role, setRole] = useState<RoleNumber>(user.roles);
  const [orgIds, setOrgIds] = useState<string[]>(user.org);
  const roles = assignableRoles(granterRole(me, orgIds));

  const save = () =>
    setAccess.mutate(
      { selectedUserId: user.id, role, editUserOrgIds: orgIds },
      {
        onSuccess: () => {
          showToast(USER_ROLE_UPDATED_TEXT, 'success');
          onClose();
        },
        onError: () => showToast(SETTINGS_SOMETHING_WRONG_TEXT, 'error'),
      },
    );

  return (
    <Dialog
      open
      title={CHANGE_USER_ACCESS_TITLE}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variation="primary" onClick={save} isLoading={setAccess.isPending} loadingText="Saving">
            Save
          </Button>
        </>
      }
    >
      <p className={styles.dialogSubject}>
        {user.userName && <strong>{user.userName}</strong>} <span className={styles.muted}>{user.email}</span>
      </p>
      <SelectField
        label="Access Role"
        value={String(role)}
        onChange={(event) => setRole(toRole(Number(event.target.value)))}
      >
        {roles.map((code) => (
          <option key={code} value={code}>
            {roleName(code)}
          </option>
        ))}
      </SelectField>
      <OrganizationChecklist
        legend="Organization"
        organizations={organizations}
        selected={orgIds}
        onChange={setOrgIds}
      />
      {user.otherOrgCount > 0 && (
        <p className={styles.muted}>
          The user keeps access to{' '}
          {user.otherOrgCount === 1 ? '1 organization' : `${user.otherOrgCount} organizations`} you do not
          administer.
        </p>
      )}
    </Dialog>
  );
}

function DeleteUsersDialog({
  users,
  onClose,
  onDeleted,
}: {
  users: ManagedUser[];
  onClose: () => void;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const remove = useMutation(settingsMutations.deleteUsers(queryClient));

  const confirm = () =>
    remove.mutate(
      users.map((user) => user.id),
      {
        onSuccess: () => {
          showToast(USER_DELETED_TEXT, 'success');
          onDeleted();
          onClose();
        },
        onError: () => showToast(SETTINGS_SOMETHING_WRONG_TEXT, 'error'),
      },
    );

  return (
    <Dialog
      open
      title={DELETE_USER_TITLE}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>No</Button>
          <Button
            variation="destructive"
            onClick={confirm}
            isLoading={remove.isPending}
            loadingText="Deleting"
          >
            Yes
          </Button>
        </>
      }
    >
      <p>{deleteUserQuestion(users.map(displayName).join(', '))}</p>
    </Dialog>
  );
}
