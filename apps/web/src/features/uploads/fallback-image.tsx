import type { RenditionUrls } from '@prodshot/contracts';
import { useState } from 'react';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';

const PLACEHOLDER =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="#eceae6"/><path d="M60 130l30-36 22 26 14-16 24 26z" fill="#c9c4bb"/><circle cx="128" cy="76" r="12" fill="#c9c4bb"/></svg>');

/** Spec §8: a broken upload image falls back to /uploads/{id}?fallback=true, then to a placeholder. */
export function FallbackImage({ id, image, alt }: { id: string; image: RenditionUrls; alt: string }) {
  const [attempt, setAttempt] = useState(0);
  const next = () => setAttempt((a) => a + 1);
  if (attempt === 0) return <RenditionImage image={image} sizes={BOX_SIZES.gridTile} alt={alt} onError={next} />;
  const fallback = attempt === 1 ? `/uploads/${encodeURIComponent(id)}?fallback=true` : PLACEHOLDER;
  return <img src={fallback} alt={alt} loading="lazy" decoding="async" width={512} height={512} onError={attempt === 1 ? next : undefined} />;
}
