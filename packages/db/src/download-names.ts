import type { GenerationRow } from './schema.js';

/** A file-name-safe slug: lower-case words joined by '-', or '' when nothing is left. */
export function slug(text: string | null | undefined): string {
  return (text ?? '')
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
}

/**
 * The product a generation's files are named after: the seller's title (sent with the call or
 * given to the upload, recorded on the request), else the name the analysis gave it; null when
 * neither did, and each kind of file then keeps its own fallback.
 */
export function namedProduct(generation: Pick<GenerationRow, 'request' | 'product_info'>): string | null {
  const asked = (generation.request as { productTitle?: unknown } | null)?.productTitle;
  const analysed = (generation.product_info as { productTitle?: unknown } | null)?.productTitle;
  for (const title of [asked, analysed]) if (typeof title === 'string' && title.trim()) return title.trim();
  return null;
}
