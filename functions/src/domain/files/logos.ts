import {
  hasRole,
  LOGO_INVALID_TYPE_TEXT,
  LOGO_MAX_BYTES,
  LOGO_TOO_LARGE_TEXT,
  LOGO_TYPES,
  type LogoType,
  LOGO_UPLOADED_TEXT,
  Role,
  type RoleNumber,
} from '@argentum/contracts';
import { forbidden, notFound } from '../errors';
import { NOT_FOUND_MESSAGES } from '../tree/texts';
import { detectLogoType } from '../users/image-type';
import type { AuthUser } from '../users/user';
import { logoKey, logoStagingFolder } from './keys';
import type { FilePorts } from './ports';
import { checkStagedUpload, createStagedUpload, type StagedUpload, type UploadRules } from './uploads';

export const LOGO_UPLOADED = LOGO_UPLOADED_TEXT;
/** Lifetime of an upload form: enough to send 10 MB on a slow line, short enough to be of no use later. */
export const LOGO_UPLOAD_SECONDS = 5 * 60;
/** Lifetime of the URL a logo is read from; the front end refreshes it well within this. */
export const LOGO_URL_SECONDS = 15 * 60;

const logoRules: UploadRules<LogoType> = {
  contentTypes: LOGO_TYPES,
  maxBytes: LOGO_MAX_BYTES,
  expiresInSeconds: LOGO_UPLOAD_SECONDS,
  invalidTypeText: LOGO_INVALID_TYPE_TEXT,
  tooLargeText: LOGO_TOO_LARGE_TEXT,
  judge: detectLogoType,
};

/**
 * The logo as the client gets it: a short-lived URL ready for an img src, and its type; both null
 * when the organization has none (a normal state, answered 200 like any other).
 */
export type OrgLogo = { data: string; logoType: LogoType } | { data: null; logoType: null };

/** Decides with the caller's role in this organization (the role belongs to the membership). */
function assertRole(user: AuthUser, orgId: string, minRole: RoleNumber): void {
  // Someone else's organization is answered exactly like one that does not exist.
  if (!hasRole(user.orgRoles, orgId, Role.readOnly)) throw notFound(NOT_FOUND_MESSAGES.organization);
  if (!hasRole(user.orgRoles, orgId, minRole)) throw forbidden();
}

/** A form to upload a new logo of this type and size straight to storage (admins of the organization). */
export async function createOrgLogoUpload(
  deps: FilePorts,
  admin: AuthUser,
  request: { orgId: string; contentType: string; size: number },
): Promise<StagedUpload> {
  assertRole(admin, request.orgId, Role.admin);
  return createStagedUpload(deps, logoStagingFolder(request.orgId), request, logoRules);
}

/**
 * Makes an uploaded logo the organization's logo once its content checks out, stored as the type
 * the content is; the staged upload is removed. A refused upload leaves the previous logo in place.
 */
export async function commitOrgLogo(
  deps: FilePorts,
  admin: AuthUser,
  request: { orgId: string; key: string },
): Promise<LogoType> {
  assertRole(admin, request.orgId, Role.admin);
  const { bytes, judged } = await checkStagedUpload(
    deps,
    logoStagingFolder(request.orgId),
    request.key,
    logoRules,
  );
  await deps.files.write(logoKey(request.orgId), bytes, judged);
  await deps.files.delete(request.key);
  return judged;
}

/** Where a member reads the organization's logo from, for a while, and its type. */
export async function readOrgLogo(deps: FilePorts, user: AuthUser, orgId: string): Promise<OrgLogo> {
  assertRole(user, orgId, Role.readOnly);
  const key = logoKey(orgId);
  const logo = await deps.files.describe(key);
  // Only ever served as one of the logo types (every logo is stored as the type its content is).
  const logoType = LOGO_TYPES.find((type) => type === logo?.contentType);
  if (!logoType) return { data: null, logoType: null };
  return {
    data: await deps.files.readUrl(key, { contentType: logoType, expiresInSeconds: LOGO_URL_SECONDS }),
    logoType,
  };
}
