import type { ImageDto } from '@prodshot/contracts';

/** Spec §3 upload list item: id equals fileId. */
export interface UploadItem {
  id: string;
  imageId: string;
  fileId: string;
  originalUrl: string;
  createdAt: string;
  name: string;
}

export function toUploadItem(image: ImageDto): UploadItem {
  return { id: image.fileId, imageId: image._id, fileId: image.fileId, originalUrl: image.originalImage.url, createdAt: image.createdAt, name: image.name };
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

/** Navigation state of /editor. */
export interface EditorState {
  imageUrl: string;
  imageId: string;
  fileId: string;
  name?: string;
}

/** Navigation state of /smart-upload: a fresh file, or a stored image. */
export type SmartUploadState = { file: File; previewUrl: string } | { imageId: string; fileId: string; previewUrl: string; name?: string };
