import { requestBlob } from '../../../lib/api-client.js';

/** docs/product-spec.md §8's fallback for an upload whose link failed: the image from the API itself, as the bearer token's owner. */
export const getUploadFallback = (fileId: string) =>
  requestBlob(`/uploads/${encodeURIComponent(fileId)}?fallback=true`);
