import { useState } from 'react';

const PLACEHOLDER =
  'data:image/svg+xml;utf8,' +
  encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"><rect width="200" height="200" fill="#eceae6"/><path d="M60 130l30-36 22 26 14-16 24 26z" fill="#c9c4bb"/><circle cx="128" cy="76" r="12" fill="#c9c4bb"/></svg>');

/** Spec §8: a broken upload image falls back to /uploads/{id}?fallback=true, then to a placeholder. */
export function FallbackImage({ id, src, alt }: { id: string; src: string; alt: string }) {
  const [attempt, setAttempt] = useState(0);
  const sources = [src, `/uploads/${encodeURIComponent(id)}?fallback=true`, PLACEHOLDER];
  return <img src={sources[attempt]} alt={alt} loading="lazy" onError={() => setAttempt((a) => Math.min(a + 1, sources.length - 1))} />;
}
