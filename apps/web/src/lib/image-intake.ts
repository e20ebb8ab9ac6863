import { UPLOAD_MAX_BYTES } from '@prodshot/contracts';

/** The dashboard takes what the API takes. */
export const DASHBOARD_MAX_BYTES = UPLOAD_MAX_BYTES;
/** The smart page advertises 5 MB (docs/product-spec.md §5), whether the file was picked there or handed over. */
export const SMART_MAX_BYTES = 5 * 1024 * 1024;

const MB = 1024 * 1024;

export function isImageFile(file: File): boolean {
  return file.type.startsWith('image/');
}

/**
 * Why a file cannot be sent, in words the seller can act on, or null when it can. Checked in the
 * browser before anything is sent: a 30 MB photo should not crawl up a phone's connection only
 * to be refused. The API keeps its own limit.
 */
export function imageFileProblem(file: File, maxBytes: number): string | null {
  const name = file.name ? `"${file.name}"` : 'This file';
  if (!isImageFile(file)) return `${name} is not an image. Please select an image file (JPEG, PNG, etc.)`;
  if (file.size > maxBytes)
    return `${name} is ${megabytes(file.size)} MB. Please select an image under ${Math.round(maxBytes / MB)}MB.`;
  return null;
}

/** Rounded up, so a file just over the limit never reads as the limit itself. */
export function megabytes(bytes: number): string {
  return (Math.ceil((bytes / MB) * 10) / 10).toFixed(1);
}
