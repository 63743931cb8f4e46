import { assertConfigured } from '../config';
import { ENV } from '../environment';
import type { SvgSanitizer } from '../domain/files/ports';
import { createApiHandler } from '../http/api-handler';
import { floorPlanUploadRoutes } from '../routes/floor-plan-uploads.routes';
import { files, planUrls } from './wiring/files';
import { clock, tree, users } from './wiring/core';

/** Floor plan uploads. The sanitizer is evaluated on the first commit, not by a request for a form. */
const svg: SvgSanitizer = {
  async sanitize(text) {
    const { svgSanitizer } = await import('../adapters/svg-sanitizer');
    return svgSanitizer.sanitize(text);
  },
};

// Plan URLs are signed with a key held in a secret: without it the function fails its cold start.
assertConfigured(process.env, [ENV.planSigningSecretId, ENV.planKeyPairId]);

export const handler = createApiHandler(floorPlanUploadRoutes, { users, tree, clock, files, planUrls, svg });
