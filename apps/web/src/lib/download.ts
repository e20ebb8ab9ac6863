/** Fetches a result as a blob so the browser saves it under our name rather than the storage key. */
export async function downloadImage(url: string, filename: string): Promise<void> {
  const response = await fetch(url, { credentials: 'include' });
  if (!response.ok) throw new Error(`Download failed: ${response.status}`);
  const blob = await response.blob();
  const objectUrl = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = objectUrl;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next task: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(objectUrl), 0);
}

export function slugify(text: string | undefined | null): string {
  const slug = (text ?? '')
    .toLowerCase()
    .replace(/\.[a-z0-9]+$/, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return slug || 'product';
}

export const editorDownloadName = (product: string | undefined | null, at = Date.now()) => `${slugify(product)}-image-${at}.png`;
export const generationDownloadName = (id: string) => `generation-${id}.png`;
export const smartResultDownloadName = (at = Date.now()) => `product-shot-${at}.jpg`;
