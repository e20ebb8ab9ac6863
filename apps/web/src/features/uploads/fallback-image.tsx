import type { RenditionUrls } from '@prodshot/contracts';
import { useEffect, useState } from 'react';
import { BOX_SIZES, RenditionImage } from '../../components/ui/rendition-image.js';
import { getUploadFallback } from './api/get-upload-fallback.js';

const PLACEHOLDER =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="#eceae6"/><path d="M60 130l30-36 22 26 14-16 24 26z" fill="#c9c4bb"/><circle cx="128" cy="76" r="12" fill="#c9c4bb"/></svg>',
  );

type Fallback = { state: 'loading' } | { state: 'loaded'; url: string } | { state: 'failed' };

/**
 * The upload from `/uploads/{id}?fallback=true`, fetched with the bearer token (an <img> cannot
 * send it) and shown from a blob URL, released when the image goes. null id: not wanted yet.
 */
function useFallbackImage(id: string | null): [Fallback, () => void] {
  const [fallback, setFallback] = useState<{ id: string; value: Fallback } | null>(null);
  useEffect(() => {
    if (!id) return;
    let url: string | null = null;
    let live = true;
    setFallback({ id, value: { state: 'loading' } });
    getUploadFallback(id).then(
      (blob) => {
        if (!live) return;
        url = URL.createObjectURL(blob);
        setFallback({ id, value: { state: 'loaded', url } });
      },
      () => live && setFallback({ id, value: { state: 'failed' } }),
    );
    return () => {
      live = false;
      if (url) URL.revokeObjectURL(url);
    };
  }, [id]);
  const value: Fallback = fallback && fallback.id === id ? fallback.value : { state: 'loading' };
  return [value, () => id && setFallback({ id, value: { state: 'failed' } })];
}

/**
 * docs/product-spec.md §8: a broken upload image falls back to /uploads/{id}?fallback=true, then to a placeholder.
 * Fresh links (the list refetched once the old ones expired) get a first try of their own.
 */
export function FallbackImage({ id, image, alt }: { id: string; image: RenditionUrls; alt: string }) {
  const [brokenLink, setBrokenLink] = useState<string | null>(null);
  const renditionBroken = brokenLink === image.thumbnailUrl;
  const [fallback, fallbackBroken] = useFallbackImage(renditionBroken ? id : null);
  if (!renditionBroken)
    return (
      <RenditionImage
        image={image}
        sizes={BOX_SIZES.gridTile}
        alt={alt}
        onError={() => setBrokenLink(image.thumbnailUrl)}
      />
    );
  return (
    <img
      src={fallback.state === 'loaded' ? fallback.url : PLACEHOLDER}
      alt={alt}
      decoding="async"
      width={512}
      height={512}
      aria-busy={fallback.state === 'loading'}
      onError={fallback.state === 'loaded' ? fallbackBroken : undefined}
    />
  );
}
