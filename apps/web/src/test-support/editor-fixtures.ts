import type { GenerationDto, ImageDto } from '@prodshot/contracts';
import type { EditorState } from '../features/uploads/upload-items.js';
import { stored } from './renditions.js';

/** The editor's source as the dashboard hands it over: one upload of a mug. */
export const editorSource: EditorState = { imageId: 'img-1', fileId: 'file-1', name: 'Mug' };

/** That upload as the API answers it, its photo stored at `photoUrl`. */
export function editorUpload(photoUrl: string): ImageDto {
  return {
    _id: 'img-1',
    fileId: 'file-1',
    name: 'mug.png',
    productTitle: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    originalImage: stored(photoUrl),
    coach: [],
  };
}

/** A one-shot manual generation of that upload in one style, just queued. */
export function queuedShot(styleName: string): GenerationDto {
  return {
    id: 'gen-1',
    kind: 'manual',
    status: 'queued',
    stage: null,
    imageId: 'img-1',
    productInfo: null,
    error: null,
    unsupportedProduct: false,
    styles: [
      {
        index: 0,
        name: styleName,
        prompt: null,
        status: 'queued',
        progress: 0,
        url: null,
        thumbnailUrl: null,
        previewUrl: null,
        error: null,
      },
    ],
    createdAt: '2025-01-01T00:00:00.000Z',
  };
}

/** The same generation finished, its shot stored at `shotUrl`. */
export function completedShot(queued: GenerationDto, shotUrl: string): GenerationDto {
  return {
    ...queued,
    status: 'complete',
    styles: [{ ...queued.styles[0]!, status: 'complete', progress: 100, ...stored(shotUrl) }],
  };
}
