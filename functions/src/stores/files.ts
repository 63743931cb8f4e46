import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '../aws/s3';
import { config } from '../config';
import type { LogoStore } from '../domain/users/org-logo';

/** Object keys in the files bucket. */
export const floorPlanKey = (orgId: string, floorId: string) => `floorplans/${orgId}/${floorId}.svg`;
export const logoKey = (orgId: string) => `logos/${orgId}`;

/** Stores an organization's logo, replacing any previous one. */
export async function putLogo(orgId: string, bytes: Uint8Array, contentType: string): Promise<void> {
  await s3().send(
    new PutObjectCommand({
      Bucket: config.filesBucket,
      Key: logoKey(orgId),
      Body: bytes,
      ContentType: contentType,
    }),
  );
}

/** An organization's logo, or undefined when it has none. */
export async function getLogo(
  orgId: string,
): Promise<{ bytes: Uint8Array; contentType: string } | undefined> {
  try {
    const object = await s3().send(new GetObjectCommand({ Bucket: config.filesBucket, Key: logoKey(orgId) }));
    if (!object.Body) return undefined;
    return {
      bytes: await object.Body.transformToByteArray(),
      contentType: object.ContentType ?? 'application/octet-stream',
    };
  } catch (error) {
    if (error instanceof NoSuchKey) return undefined;
    throw error;
  }
}

/** The S3 adapter of the logo store. */
export const s3LogoStore: LogoStore = { put: putLogo, get: getLogo };

/** Floor plans, as the tree's sweep removes them; removing a plan that is not there is a no-op. */
export const s3FloorPlans = {
  async removeFloorPlan(orgId: string, floorId: string): Promise<void> {
    await s3().send(
      new DeleteObjectCommand({ Bucket: config.filesBucket, Key: floorPlanKey(orgId, floorId) }),
    );
  },
};
