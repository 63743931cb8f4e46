import * as z from 'zod';
import { inviteUser } from '../domain/auth/invitations';
import { EMAIL_INVALID, INVITE_EMAIL_REQUIRED, INVITE_SENT } from '../domain/auth/messages';
import { body, id, notAvailableYet } from '../http/schemas';
import { route } from '../http/types';

const domain = 'users';
/** A logo of at most 10,000,000 bytes, as a base64 data URL, with room for the prefix and fields. */
const LOGO_BODY_BYTES = Math.ceil((10_000_000 * 4) / 3) + 4096;

export const usersRoutes = [
  route({
    method: 'POST',
    path: '/api/fetchUsers',
    domain,
    access: { minRole: 2 },
    summary: 'Users of the organizations the admin administers.',
    request: body({ roles: z.number().int().min(0).max(3).optional() }),
    handler: notAvailableYet('The user list'),
  }),
  route({
    method: 'POST',
    path: '/api/setUserAccess',
    domain,
    access: { minRole: 2 },
    summary: "Changes a user's role and organizations.",
    request: body({
      selectedUserId: id,
      role: z.number().int().min(0).max(3),
      editUserOrgIds: z.array(id).max(500),
    }),
    handler: notAvailableYet('Changing user access'),
  }),
  route({
    method: 'POST',
    path: '/api/deleteUser',
    domain,
    access: { minRole: 2 },
    summary: 'Deletes users.',
    request: body({ selectedRowDataIds: z.array(id).min(1).max(100) }),
    handler: notAvailableYet('Deleting users'),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/sendInviteUserEmail',
    domain,
    access: { minRole: 2 },
    summary: 'Invites a user by e-mail to organizations.',
    request: body({
      email: z
        .string()
        .trim()
        .min(1, INVITE_EMAIL_REQUIRED)
        .max(254)
        .email(EMAIL_INVALID)
        .transform((email) => email.toLowerCase()),
      organizationId: z.union([id, z.array(id).min(1).max(200)]),
      // Accepted for compatibility; the e-mail names the organizations as stored.
      organizationName: z.union([z.string().max(200), z.array(z.string().max(200)).max(200)]).optional(),
    }),
    handler: async ({ body, user }) => {
      const organizationIds = Array.isArray(body.organizationId)
        ? body.organizationId
        : [body.organizationId];
      await inviteUser(user, { email: body.email, organizationIds });
      return { body: { message: INVITE_SENT } };
    },
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/setOrgLogo',
    domain,
    access: { minRole: 2 },
    summary: "Uploads an organization's logo (an image as a data URL, at most 10,000,000 bytes).",
    maxBodyBytes: LOGO_BODY_BYTES,
    request: body({ file: z.string().max(LOGO_BODY_BYTES), org: id }),
    handler: notAvailableYet('Logo upload'),
  }),
  route({
    method: 'POST',
    path: '/api/dashboard/getOrgLogoFromS3',
    domain,
    access: { minRole: 0 },
    summary: "An organization's logo: data and logoType.",
    request: body({ orgID: id }),
    handler: notAvailableYet('Organization logos'),
  }),
];
