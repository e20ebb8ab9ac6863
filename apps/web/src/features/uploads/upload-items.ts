import type { ImageDto, RenditionUrls } from '@prodshot/contracts';

/** docs/product-spec.md §3 upload list item: id equals fileId; lists show its renditions, never the original. */
export interface UploadItem extends RenditionUrls {
  id: string;
  imageId: string;
  fileId: string;
  originalUrl: string;
  createdAt: string;
  name: string;
}

export function toUploadItem(image: ImageDto): UploadItem {
  const { url, thumbnailUrl, previewUrl } = image.originalImage;
  return {
    id: image.fileId,
    imageId: image._id,
    fileId: image.fileId,
    originalUrl: url,
    thumbnailUrl,
    previewUrl,
    createdAt: image.createdAt,
    name: image.name,
  };
}

/** A stored image chosen again: what the dashboard holds in place of a File (docs/product-spec.md §3). */
export interface StoredSelection {
  id: string;
  imageId: string;
  fileId: string;
  name: string;
  type: 'image/jpeg';
  size: 0;
  lastModified: number;
}

export function storedSelection(item: {
  imageId: string;
  fileId: string;
  name?: string | null;
  createdAt?: string;
}): StoredSelection {
  return {
    id: item.fileId,
    imageId: item.imageId,
    fileId: item.fileId,
    name: item.name || 'Untitled',
    type: 'image/jpeg',
    size: 0,
    lastModified: item.createdAt ? Date.parse(item.createdAt) : Date.now(),
  };
}

/**
 * Navigation state of /editor: the upload's ids, never its signed links, which expire while the
 * history entry lives on; the editor reads the upload's fresh links from the API.
 */
export interface EditorState {
  imageId: string;
  fileId: string;
  name?: string;
}

/**
 * Navigation state of /smart-upload: a fresh file (with the title the seller gave it, saved once
 * it is uploaded), or a stored image by its ids (its links come from the API).
 */
export type SmartUploadState =
  { file: File; productTitle?: string } | { imageId: string; fileId: string; name?: string };
