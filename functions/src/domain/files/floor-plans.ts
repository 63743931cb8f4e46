import {
  FLOOR_PLAN_INVALID_TYPE_TEXT,
  FLOOR_PLAN_MAX_BYTES,
  FLOOR_PLAN_TOO_LARGE_TEXT,
  FLOOR_PLAN_TOO_DEEP_TEXT,
  FLOOR_PLAN_UNREADABLE_TEXT,
  FLOOR_PLAN_UPLOAD_SECONDS,
  FLOOR_PLAN_UPLOADED_TEXT,
  type FloorPlanAnswer,
  hasRole,
  Role,
  type RoleNumber,
} from '@argentum/contracts';
import { forbidden, notFound, validationError } from '../errors';
import type { NodeRef, TreeStore } from '../tree/ports';
import type { TreeNode } from '../tree/tree';
import { NOT_FOUND_MESSAGES } from '../tree/texts';
import type { AuthUser } from '../users/user';
import {
  FLOOR_PLAN_RENDITION_WIDTHS,
  floorPlanKey,
  floorPlanRemovalKeys,
  floorPlanRenditionKey,
  floorPlanStagingFolder,
} from './keys';
import type { FilePorts, PlanUrlSigner, StoredObject, SvgRefusal, SvgSanitizer } from './ports';
import { checkStagedUpload, createStagedUpload, type StagedUpload, type UploadRules } from './uploads';

/**
 * Floor plans: one SVG per floor. The browser uploads the file straight to storage (the presigned
 * form of uploads.ts); committing it sanitizes it (no script, no event handlers, no foreignObject, no
 * reference outside the document, no entity expansion) and stores only the clean result, with its
 * size, at the floor's plan key. Plans are read through short-lived signed URLs of the app's origin
 * (CloudFront in front of the files bucket): served as an SVG image, as a download when opened, with
 * `nosniff` and a sandboxing CSP, so nothing in one can run as a page of the app's origin.
 */

export const FLOOR_PLAN_UPLOADED = FLOOR_PLAN_UPLOADED_TEXT;
export const FLOOR_PLAN_NOT_FOUND = 'This floor has no floor plan yet.';
export const FLOOR_PLAN_TYPE = 'image/svg+xml';
/** Lifetime of the URL a plan is read from: the front end loads it at once and asks again later. */
export const FLOOR_PLAN_URL_SECONDS = 5 * 60;
/**
 * How a plan is served (S3 system metadata of the object, passed on by CloudFront): as an SVG image,
 * and as a download when opened as a page, so nothing in it can run in a browser tab even if
 * sanitizing missed something. An <img> ignores the disposition.
 */
export const FLOOR_PLAN_DISPOSITION = 'attachment; filename="floor-plan.svg"';
export const FLOOR_PLAN_CACHE_CONTROL = `private, max-age=${FLOOR_PLAN_URL_SECONDS}`;

/** Metadata stored with a plan, so reading it needs no parse. */
const META = { width: 'plan-width', height: 'plan-height', updatedAt: 'plan-updated-at' } as const;

/** Raster renditions (plan-renditions.ts): WebP, served as the plan is. */
export const FLOOR_PLAN_RENDITION_TYPE = 'image/webp';
export const FLOOR_PLAN_RENDITION_DISPOSITION = 'attachment; filename="floor-plan.webp"';
/** The metadata a plan and each of its renditions carry: the plan's version (when it was stored). */
export const PLAN_VERSION_META = META.updatedAt;

/** The version of a stored plan: when it was stored (its metadata; S3's last modified for demo data). */
export function planVersion(plan: StoredObject): string | undefined {
  return plan.metadata?.[PLAN_VERSION_META] ?? plan.lastModified?.toISOString();
}

/** What reading a plan needs. */
export interface FloorPlanReadPorts extends FilePorts {
  planUrls: PlanUrlSigner;
  tree: Pick<TreeStore, 'findNode' | 'getNode'>;
  clock: { now(): Date };
}

/** What uploading a plan needs: also the sanitizer. */
export interface FloorPlanPorts extends FloorPlanReadPorts {
  svg: SvgSanitizer;
}

const REFUSALS: Record<SvgRefusal, string> = {
  entity: FLOOR_PLAN_UNREADABLE_TEXT,
  unreadable: FLOOR_PLAN_UNREADABLE_TEXT,
  'no-size': FLOOR_PLAN_UNREADABLE_TEXT,
  'too-deep': FLOOR_PLAN_TOO_DEEP_TEXT,
};

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether the bytes can be an SVG document at all: UTF-8 text (an optional byte order mark) whose first
 * markup is `<`. Anything else (an image, a PDF, UTF-16, binary) is not an SVG file; whether the text
 * is a readable SVG is for the sanitizer to say.
 */
export function svgText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return undefined;
  }
  if (text.includes('\u0000')) return undefined;
  return /^\ufeff?\s*</.test(text) ? text : undefined;
}

const planRules: UploadRules<string> = {
  contentTypes: [FLOOR_PLAN_TYPE],
  maxBytes: FLOOR_PLAN_MAX_BYTES,
  expiresInSeconds: FLOOR_PLAN_UPLOAD_SECONDS,
  invalidTypeText: FLOOR_PLAN_INVALID_TYPE_TEXT,
  tooLargeText: FLOOR_PLAN_TOO_LARGE_TEXT,
  judge: svgText,
};

/**
 * The floor, when the caller may use its plan with `minRole`. A floor that does not exist, is deleted
 * (or lies under a deleted building or organization), belongs to another organization than `orgId`,
 * or to an organization the caller is not in, gets one and the same 404.
 */
async function floorFor(
  deps: Pick<FloorPlanReadPorts, 'tree'>,
  user: AuthUser,
  request: { orgId: string; floorId: string },
  minRole: RoleNumber,
): Promise<TreeNode> {
  const floor = await deps.tree.findNode(request.floorId);
  if (!floor || floor.kind !== 'floor' || floor.orgId !== request.orgId) throw missingFloor();
  if (!hasRole(user.orgRoles, floor.orgId, Role.readOnly)) throw missingFloor();
  if (floor.deletedAt) throw missingFloor();
  if (!(await allLive(deps, ancestorsOf(floor)))) throw missingFloor();
  if (!hasRole(user.orgRoles, floor.orgId, minRole)) throw forbidden();
  return floor;
}

const missingFloor = () => notFound(NOT_FOUND_MESSAGES.floor);

/** The organization and building a floor lies under. */
function ancestorsOf(floor: TreeNode): NodeRef[] {
  const ancestors: NodeRef[] = [{ kind: 'organization', id: floor.orgId, orgId: floor.orgId }];
  if (floor.buildId !== undefined) {
    ancestors.push({ kind: 'building', id: floor.buildId, orgId: floor.orgId });
  }
  return ancestors;
}

/** Whether every node is stored and not deleted, read consistently now. */
async function allLive(deps: Pick<FloorPlanReadPorts, 'tree'>, refs: NodeRef[]): Promise<boolean> {
  const found = await Promise.all(refs.map((ref) => deps.tree.getNode(ref)));
  return found.every((node) => node !== undefined && node.deletedAt === undefined);
}

/** A form to upload a floor's new plan, one SVG under 10 MB, straight to storage (admins). */
export async function createFloorPlanUpload(
  deps: FloorPlanPorts,
  admin: AuthUser,
  request: { orgId: string; floorId: string; contentType: string; size: number },
): Promise<StagedUpload> {
  const floor = await floorFor(deps, admin, request, Role.admin);
  return createStagedUpload(deps, floorPlanStagingFolder(floor.orgId, floor.id), request, planRules);
}

/** What a plan upload answers: the documented text and the plan as floorPlanFromS3 gives it. */
export interface FloorPlanUploaded extends FloorPlanAnswer {
  message: string;
}

const readUrl = (deps: Pick<FloorPlanReadPorts, 'planUrls'>, key: string) =>
  deps.planUrls.signedUrl(key, FLOOR_PLAN_URL_SECONDS);

/**
 * Makes an uploaded SVG the floor's plan: the staged file must be an SVG under 10 MB that parses as
 * one (no entity declarations), and only its sanitized form is stored. A refused upload is removed
 * and the previous plan stays; so is a used one.
 *
 * No plan outlives its floor. The floor may be deleted while the plan is checked and written: the delete
 * is committed first (the floor, its building or its organization marked deleted), and only then does
 * the sweep remove the floor's plan, then its renditions, then the nodes (tree/sweep.ts). DynamoDB's
 * consistent reads and S3 are strongly consistent, so after writing the commit reads the floor and the
 * nodes above it again, and the order of that read and the delete's commit decides:
 * - sweep before the write: the delete was committed before the sweep, so before the re-read, which sees
 *   it; the commit removes the plan it wrote (then the renditions, as the sweep does) and answers as for
 *   an unknown floor.
 * - delete committed between the write and the re-read: the re-read sees it; same as above, whether the
 *   sweep's deletes came before or after the commit's (each removal is idempotent).
 * - delete committed after the re-read: the sweep starts later still, so its deletes come after the
 *   write and remove the plan; renditions drawn from it are removed by the sweep or withdrawn by their
 *   drawing (plan-renditions.ts). The commit answered for a floor that existed when it was stored.
 * - a redelivered sweep finds the floor gone and does nothing: the re-read sees the floor gone too.
 * What is left behind takes a commit that stops between its write and the end of its removals (a
 * timeout, a crash): the plan of a deleted floor that nobody can read (its floor answers 404).
 */
export async function commitFloorPlan(
  deps: FloorPlanPorts,
  admin: AuthUser,
  request: { orgId: string; floorId: string; key: string },
): Promise<FloorPlanUploaded> {
  const floor = await floorFor(deps, admin, request, Role.admin);
  const folder = floorPlanStagingFolder(floor.orgId, floor.id);
  const { judged: text } = await checkStagedUpload(deps, folder, request.key, planRules);
  const verdict = await deps.svg.sanitize(text);
  if (!verdict.ok) {
    await deps.files.delete(request.key);
    throw validationError(REFUSALS[verdict.reason]);
  }
  const key = floorPlanKey(floor.orgId, floor.id);
  const updatedAt = deps.clock.now().toISOString();
  await deps.files.write(
    key,
    new TextEncoder().encode(verdict.svg),
    FLOOR_PLAN_TYPE,
    {
      [META.width]: String(verdict.width),
      [META.height]: String(verdict.height),
      [META.updatedAt]: updatedAt,
    },
    // Served so by any GET, not only by the presigned URLs' overrides.
    { contentDisposition: FLOOR_PLAN_DISPOSITION, cacheControl: FLOOR_PLAN_CACHE_CONTROL },
  );
  // Read again after the write (see above): a delete committed meanwhile would not sweep this plan.
  const live = await allLive(deps, [floor, ...ancestorsOf(floor)]);
  if (!live) {
    for (const written of floorPlanRemovalKeys(floor.orgId, floor.id)) await deps.files.delete(written);
  }
  await deps.files.delete(request.key);
  if (!live) throw missingFloor();
  return {
    message: FLOOR_PLAN_UPLOADED,
    data: await readUrl(deps, key),
    width: verdict.width,
    height: verdict.height,
    updatedAt,
    // Drawn after this answer (plan-renditions.ts): the next read has them.
    renditions: [],
  };
}

const positive = (value: string | undefined) => {
  const number = Number(value);
  return value !== undefined && Number.isFinite(number) && number > 0 ? number : undefined;
};

/** A plan stored without its size (the local demo data): read it from the root element's attributes. */
async function sizeFromContent(
  deps: FilePorts,
  key: string,
): Promise<{ width: number; height: number } | undefined> {
  const bytes = await deps.files.read(key, { maxBytes: FLOOR_PLAN_MAX_BYTES });
  const text = bytes && svgText(bytes);
  const root = text && /<svg\b([^>]*)>/.exec(text)?.[1];
  if (!root) return undefined;
  const attributes = new Map<string, string>();
  for (const match of root.matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    attributes.set(match[1] ?? '', match[2] ?? match[3] ?? '');
  }
  return planSize((name) => attributes.get(name) ?? null);
}

/** A floor's plan for any member of its organization: a short-lived URL, its size, when it changed. */
export async function readFloorPlan(
  deps: FloorPlanReadPorts,
  user: AuthUser,
  request: { orgId: string; floorId: string },
): Promise<FloorPlanAnswer> {
  const floor = await floorFor(deps, user, request, Role.readOnly);
  const key = floorPlanKey(floor.orgId, floor.id);
  const renditionKeys = FLOOR_PLAN_RENDITION_WIDTHS.map((width) =>
    floorPlanRenditionKey(floor.orgId, floor.id, width),
  );
  const [plan, ...stored] = await Promise.all([key, ...renditionKeys].map((k) => deps.files.describe(k)));
  if (!plan || plan.size === 0) throw notFound(FLOOR_PLAN_NOT_FOUND);
  const width = positive(plan.metadata?.[META.width]);
  const height = positive(plan.metadata?.[META.height]);
  const size = width && height ? { width, height } : await sizeFromContent(deps, key);
  if (!size) throw notFound(FLOOR_PLAN_NOT_FOUND);
  // Only the renditions drawn from this very plan: a newer plan is shown as SVG until its are drawn.
  const version = planVersion(plan);
  const renditions = await Promise.all(
    FLOOR_PLAN_RENDITION_WIDTHS.flatMap((renditionWidth, at) => {
      const rendition = stored[at];
      const current =
        version !== undefined &&
        rendition &&
        rendition.size > 0 &&
        rendition.metadata?.[PLAN_VERSION_META] === version;
      return current
        ? [readUrl(deps, renditionKeys[at] ?? '').then((url) => ({ width: renditionWidth, url }))]
        : [];
    }),
  );
  return {
    data: await readUrl(deps, key),
    ...size,
    updatedAt: plan.metadata?.[META.updatedAt] ?? (plan.lastModified ?? deps.clock.now()).toISOString(),
    renditions,
  };
}

const UNITS: Record<string, number> = {
  '': 1,
  px: 1,
  in: 96,
  cm: 96 / 2.54,
  mm: 96 / 25.4,
  pt: 4 / 3,
  pc: 16,
};

/** An absolute length in user units (px, or in, cm, mm, pt, pc converted); percentages have none. */
function absoluteLength(value: string | null): number | undefined {
  const match = /^\s*\+?((?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)\s*(px|in|cm|mm|pt|pc)?\s*$/i.exec(value ?? '');
  if (!match) return undefined;
  // Rounded to a thousandth of a unit: 254mm is 960, not 960.0000000000001.
  const number =
    Math.round(Number(match[1]) * (UNITS[(match[2] ?? '').toLowerCase()] ?? Number.NaN) * 1000) / 1000;
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** A plan's size in user units: its viewBox, else its absolute width and height attributes. */
export function planSize(
  attribute: (name: string) => string | null,
): { width: number; height: number } | undefined {
  const box = (attribute('viewBox') ?? '')
    .trim()
    .split(/[\s,]+/)
    .map(Number);
  const [, , boxWidth = 0, boxHeight = 0] = box;
  if (box.length === 4 && box.every(Number.isFinite) && boxWidth > 0 && boxHeight > 0) {
    return { width: boxWidth, height: boxHeight };
  }
  const width = absoluteLength(attribute('width'));
  const height = absoluteLength(attribute('height'));
  return width && height ? { width, height } : undefined;
}
