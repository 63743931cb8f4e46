import { apiCalls } from '@argentum/contracts/api';
import {
  type AdministrationPorts,
  USER_DELETED,
  USER_ROLE_UPDATED,
  deleteUsers,
  listManagedUsers,
  setUserAccess,
} from '../domain/users/administration';
import {
  LOGO_UPLOADED,
  LOGO_UPLOAD_SECONDS,
  LOGO_URL_SECONDS,
  commitOrgLogo,
  createOrgLogoUpload,
  readOrgLogo,
} from '../domain/files/logos';
import type { FilePorts } from '../domain/files/ports';
import { type InvitationPorts, inviteUser } from '../domain/auth/invitations';
import { INVITE_SENT } from '../domain/auth/texts';
import { type RoutePorts, routesFor } from '../http/types';

const domain = 'users';
/** What the users' handlers need; lambda/api-users.ts wires them. */
export type UsersRoutePorts = RoutePorts & AdministrationPorts & InvitationPorts & FilePorts;
const route = routesFor<UsersRoutePorts>();

export const usersRoutes = [
  route({
    call: apiCalls.fetchUsers,
    domain,
    access: { minRole: 2 },
    summary:
      'Users who share at least one organization with the admin, sorted by e-mail: ' +
      '`{ users: [{ id, userName, email, roles, org, otherOrgCount, editable, deletable }] }`. ' +
      '`org` lists only the organizations the user shares with the admin (the ones the admin may ' +
      'assign or remove); `otherOrgCount` counts the others without naming them. `editable` is false ' +
      'for the admin themselves and for users with a higher role; `deletable` also needs the user to ' +
      'be in none of the other organizations. `roles`, when given, lists only users with that role.',
    handler: async ({ user, body: { roles }, ports }) => ({
      body: { users: await listManagedUsers(ports, user, roles) },
    }),
  }),
  route({
    call: apiCalls.setUserAccess,
    domain,
    access: { minRole: 2 },
    summary:
      "Changes a user's role and, among the admin's organizations, the user's organizations " +
      "(`editUserOrgIds`; organizations outside the admin's are kept). Refused (403) for the admin " +
      "themselves, users in none of the admin's organizations or with a higher role, a role above the " +
      "admin's own (role 3 only by role 3) and organizations the admin does not administer. " +
      'Answers `{ message, user }` (user as in /api/fetchUsers); 409 when the user changed meanwhile.',
    handler: async ({ user, body: { selectedUserId, role: newRole, editUserOrgIds }, ports }) => {
      const changed = await setUserAccess(ports, user, {
        userId: selectedUserId,
        role: newRole,
        orgIds: editUserOrgIds,
      });
      return { body: { message: USER_ROLE_UPDATED, user: changed } };
    },
  }),
  route({
    call: apiCalls.deleteUser,
    domain,
    access: { minRole: 2 },
    summary:
      'Deletes users (identity and record), all or none: refused (403) when any of them is the admin, ' +
      "is in none of the admin's organizations, has a higher role or also belongs to organizations the " +
      'admin does not administer; 404 when any does not exist.',
    handler: async ({ user, body: { selectedRowDataIds }, ports }) => {
      await deleteUsers(ports, user, selectedRowDataIds);
      return { body: { message: USER_DELETED } };
    },
  }),
  route({
    call: apiCalls.sendInviteUserEmail,
    domain,
    access: { minRole: 2 },
    summary: 'Invites a user by e-mail to organizations.',
    handler: async ({ body, user, ports }) => {
      const organizationIds = Array.isArray(body.organizationId)
        ? body.organizationId
        : [body.organizationId];
      await inviteUser(ports, user, { email: body.email, organizationIds });
      return { body: { message: INVITE_SENT } };
    },
  }),
  route({
    call: apiCalls.createOrgLogoUpload,
    domain,
    access: { minRole: 2 },
    summary:
      'Step 1 of a logo upload, for admins of the organization: a presigned S3 POST for one file of the ' +
      'declared `contentType` (image/png, image/jpeg, image/gif or image/webp) and `size` (1 to ' +
      "10,000,000 bytes; 400 'Invalid file type' or 'File size too large!.'). Answers " +
      '`{ url, fields, key, expiresIn }`: post a multipart form to `url` with every field of `fields` ' +
      `and the file last, within \`expiresIn\` (${LOGO_UPLOAD_SECONDS}) seconds; S3 enforces the key, ` +
      'the size range and the Content-Type. Then commit with /api/dashboard/setOrgLogo. Someone ' +
      "else's organization answers 404 like one that does not exist.",
    handler: async ({ user, body: { org, contentType, size }, ports }) => ({
      body: await createOrgLogoUpload(ports, user, { orgId: org, contentType, size }),
    }),
  }),
  route({
    call: apiCalls.setOrgLogo,
    domain,
    access: { minRole: 2 },
    summary:
      'Step 2 of a logo upload: makes the uploaded file (`file` is the `key` that ' +
      '/api/dashboard/createOrgLogoUpload answered) the logo of `org`. The file is judged by its content ' +
      "(PNG, JPEG, GIF or WebP; SVG is refused): 400 'Invalid file type' or 'File size too large!.' " +
      'remove the upload and keep the previous logo. Answers `{ message, logoType }`; 404 for a key ' +
      "that is not an upload of this organization (expired, used, someone else's).",
    handler: async ({ user, body: { file, org }, ports }) => {
      const logoType = await commitOrgLogo(ports, user, { orgId: org, key: file });
      return { body: { message: LOGO_UPLOADED, logoType } };
    },
  }),
  route({
    call: apiCalls.getOrgLogoFromS3,
    domain,
    access: { minRole: 0 },
    summary:
      "The logo of one of the user's organizations: `{ data, logoType }`, `data` being a presigned URL " +
      `of the stored image, valid for ${LOGO_URL_SECONDS} seconds and usable as an image source (served ` +
      'as `logoType`); both null when the organization has none.',
    handler: async ({ user, body: { orgID }, ports }) => ({ body: await readOrgLogo(ports, user, orgID) }),
  }),
];
