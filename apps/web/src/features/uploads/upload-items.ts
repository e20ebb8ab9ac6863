import type { ImageDto, RenditionUrls } from '@prodshot/contracts';

/** Spec §3 upload list item: id equals fileId; lists show its renditions, never the original. */
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
  return { id: image.fileId, imageId: image._id, fileId: image.fileId, originalUrl: url, thumbnailUrl, previewUrl, createdAt: image.createdAt, name: image.name };
}

/** A stored image chosen again: what the dashboard holds in place of a File (spec §3). */
export interface StoredSelection {
  id: string;
  imageId: string;
  fileId: string;
  name: string;
  type: 'image/jpeg';
  size: 0;
  lastModified: number;
}

export function storedSelection(item: { imageId: string; fileId: string; name?: string | null; createdAt?: string }): StoredSelection {
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

/** Navigation state of /editor: the original's URL for the API, its preview rendition for the screen. */
export interface EditorState {
  imageUrl: string;
  previewUrl: string;
  imageId: string;
  fileId: string;
  name?: string;
}

/** Navigation state of /smart-upload: a fresh file, or a stored image. */
export type SmartUploadState = { file: File; previewUrl: string } | { imageId: string; fileId: string; previewUrl: string; name?: string };
