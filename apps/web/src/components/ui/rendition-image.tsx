import type { RenditionUrls } from '@prodshot/contracts';
import type { ImgHTMLAttributes } from 'react';

/**
 * The renditions' longest sides, as the worker writes them. A portrait rendition is narrower than
 * its descriptor says, so the browser may pick a little large there, never too small.
 */
const THUMBNAIL_PX = 512;
const PREVIEW_PX = 1280;

/**
 * How wide each box that shows a stored image is, in CSS terms; they follow the breakpoints and
 * tracks of styles.css, so the browser fetches the thumbnail for lists and the preview only for
 * large boxes.
 */
export const BOX_SIZES = {
  /** The dashboard's sidebar grid: three columns of a 20rem sidebar, or of the page on a phone. */
  sidebarThumb: '(max-width: 560px) 31vw, (max-width: 1024px) 16vw, 6.5rem',
  /** The editor's strips: 4.5rem squares. */
  strip: '4.5rem',
  /** A session history entry: a 3rem square. */
  historyEntry: '3rem',
  /** A smart style card's 4rem square. */
  styleThumb: '4rem',
  /** The /all-uploads and /all-generations tiles: 2, 3 or 4 columns of an 80rem page. */
  gridTile: '(max-width: 560px) 46vw, (max-width: 1024px) 31vw, 18rem',
  /** The smart results grid: columns of at least 16rem. */
  resultCard: '(max-width: 560px) 92vw, (max-width: 1024px) 46vw, 25rem',
  /** The popup: the dialog is at most 32rem wide. */
  popup: '(max-width: 560px) 90vw, 29rem',
  /** The editor's preview frame and the smart screens' photo: the page's main column. */
  mainColumn: '(max-width: 1024px) 92vw, 40rem',
  /** The smart run's photo: the left column on a desktop, a 5rem thumbnail on a phone. */
  smartPhoto: '(max-width: 860px) 5rem, 26rem',
  /** The dashboard's chosen image: 16rem, the full width on a phone. */
  selectedPreview: '(max-width: 560px) 92vw, 16rem',
} as const;

export function renditionSrcSet(image: RenditionUrls): string {
  return `${image.thumbnailUrl} ${THUMBNAIL_PX}w, ${image.previewUrl} ${PREVIEW_PX}w`;
}

type Props = Omit<ImgHTMLAttributes<HTMLImageElement>, 'src' | 'srcSet' | 'sizes' | 'loading'> & {
  image: RenditionUrls;
  sizes: string;
  alt: string;
  /** Above the fold: fetched at once; everything else waits until it is scrolled near. */
  eager?: boolean;
};

/**
 * A stored image at the size its box needs: the thumbnail or the preview, picked by the browser from
 * `sizes`. The full file is for Download and exports only. width/height give the box its ratio
 * before the picture arrives (the CSS sets the size), so nothing shifts as it loads.
 */
export function RenditionImage({
  image,
  sizes,
  eager = false,
  width = THUMBNAIL_PX,
  height = THUMBNAIL_PX,
  ...rest
}: Props) {
  return (
    <img
      src={image.thumbnailUrl}
      srcSet={renditionSrcSet(image)}
      sizes={sizes}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      width={width}
      height={height}
      {...rest}
    />
  );
}
