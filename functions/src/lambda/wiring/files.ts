import { s3FileStore } from '../../stores/files';

/** The files bucket: logos, their uploads and floor plans. */
export const files = s3FileStore;
