import { showcaseSrc, showcaseSrcSet } from '../../lib/showcase.js';

/** One of the home page's static pictures, as WebP at the width its box needs. */
export function ShowcaseImage({
  name,
  sizes,
  alt,
  priority = false,
  className,
}: {
  name: string;
  sizes: string;
  alt: string;
  priority?: boolean;
  className?: string;
}) {
  return (
    <img
      className={className}
      src={showcaseSrc(name)}
      srcSet={showcaseSrcSet(name)}
      sizes={sizes}
      alt={alt}
      width={640}
      height={640}
      loading={priority ? 'eager' : 'lazy'}
      decoding={priority ? 'sync' : 'async'}
      fetchPriority={priority ? 'high' : 'auto'}
    />
  );
}
