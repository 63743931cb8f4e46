import { LOGO_INVALID_TYPE_TEXT, LOGO_TOO_LARGE_TEXT, LOGO_UPLOADED_TEXT } from '@argentum/events/contracts';
import { hasRole, Role } from '@argentum/events/contracts';
import { forbidden, notFound, validationError } from '../errors';
import { detectLogoType, type LogoType } from './image-type';
import type { AuthUser } from './user';

/** Specification section 9: one file of at most 10,000,000 bytes. */
export const LOGO_MAX_BYTES = 10_000_000;
export const LOGO_TOO_LARGE = LOGO_TOO_LARGE_TEXT;
export const LOGO_INVALID_TYPE = LOGO_INVALID_TYPE_TEXT;
export const LOGO_UPLOADED = LOGO_UPLOADED_TEXT;
export const LOGO_NOT_FOUND = 'This organization has no logo.';
export const ORGANIZATION_NOT_FOUND = 'Organization not found.';

/** Where logos are kept (the S3 adapter is stores/files.ts). */
export interface LogoStore {
  put(orgId: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(orgId: string): Promise<{ bytes: Uint8Array } | undefined>;
}

/** The logo as the client gets it: a data URL ready for an img src, and its type. */
export interface OrgLogo {
  data: string;
  logoType: LogoType;
}

const DATA_URL = /^data:[^,]{0,200}?;base64,([A-Za-z0-9+/]*={0,2})$/;

/** The decoded bytes of a base64 data URL (what the browser's FileReader.readAsDataURL gives). */
function decodeDataUrl(file: string): Buffer {
  const match = DATA_URL.exec(file.trim());
  const base64 = match?.[1];
  if (base64 === undefined || base64.length % 4 !== 0) throw validationError(LOGO_INVALID_TYPE);
  return Buffer.from(base64, 'base64');
}

/** Stores an organization's logo. The type is judged by the bytes; the declared type is ignored. */
export async function uploadOrgLogo(
  deps: { logos: LogoStore },
  admin: AuthUser,
  orgId: string,
  file: string,
): Promise<LogoType> {
  // Another organization's id is answered like an unknown one.
  if (!hasRole(admin.orgRoles, orgId, Role.readOnly)) throw notFound(ORGANIZATION_NOT_FOUND);
  if (!hasRole(admin.orgRoles, orgId, Role.admin)) throw forbidden();
  const bytes = decodeDataUrl(file);
  if (bytes.length > LOGO_MAX_BYTES) throw validationError(LOGO_TOO_LARGE);
  const logoType = detectLogoType(bytes);
  if (!logoType) throw validationError(LOGO_INVALID_TYPE);
  await deps.logos.put(orgId, bytes, logoType);
  return logoType;
}

export async function readOrgLogo(
  deps: { logos: LogoStore },
  user: AuthUser,
  orgId: string,
): Promise<OrgLogo> {
  // An organization the user is not in has no logo for them, like one that does not exist.
  if (!hasRole(user.orgRoles, orgId, Role.readOnly)) throw notFound(LOGO_NOT_FOUND);
  const logo = await deps.logos.get(orgId);
  // Judged again by content: whatever is in the bucket is only ever served as a known image type.
  const logoType = logo && detectLogoType(logo.bytes);
  if (!logo || !logoType) throw notFound(LOGO_NOT_FOUND);
  return { data: `data:${logoType};base64,${Buffer.from(logo.bytes).toString('base64')}`, logoType };
}
