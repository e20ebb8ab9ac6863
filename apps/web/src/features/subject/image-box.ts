import type { Focus, FractionBox } from '@prodshot/contracts';

export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

export interface Size {
  width: number;
  height: number;
}

/**
 * Where the picture lands inside an <img>'s content box once `object-fit` has scaled it, centred
 * as the default `object-position` places it (no screen of the app moves it). `contain` leaves
 * letterbox bars, `cover` overflows the box.
 */
export function renderedImageBox(element: Box, natural: Size, fit: string): Box {
  if (fit === 'fill' || !natural.width || !natural.height) return element;
  const fitScale = Math.min(element.width / natural.width, element.height / natural.height);
  const scale =
    fit === 'cover'
      ? Math.max(element.width / natural.width, element.height / natural.height)
      : fit === 'none'
        ? 1
        : fit === 'scale-down'
          ? Math.min(1, fitScale)
          : fitScale;
  const width = natural.width * scale;
  const height = natural.height * scale;
  return {
    left: element.left + (element.width - width) / 2,
    top: element.top + (element.height - height) / 2,
    width,
    height,
  };
}

/** Rounded, so 0.55 is styled '55%' and not '55.00000000000001%'. */
export function percent(fraction: number): string {
  return `${Math.round(fraction * 100_000) / 1000}%`;
}

/** Four decimals is a tenth of a pixel on a 1000 px photo: precise enough, and request bodies stay readable. */
function round(fraction: number): number {
  return Math.round(fraction * 10_000) / 10_000;
}

/** The focus under a client point, or null on a letterbox bar: a tap beside the photo points at nothing. */
export function focusAt(clientX: number, clientY: number, picture: Box): Focus | null {
  if (picture.width <= 0 || picture.height <= 0) return null;
  const x = (clientX - picture.left) / picture.width;
  const y = (clientY - picture.top) / picture.height;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  return { x: round(x), y: round(y) };
}

function px(value: string): number {
  return Number.parseFloat(value) || 0;
}

/** The picture's box on screen; null until the image has loaded and its natural size is known. */
export function pictureBox(img: HTMLImageElement): Box | null {
  if (!img.naturalWidth || !img.naturalHeight) return null;
  const rect = img.getBoundingClientRect();
  const style = getComputedStyle(img);
  // The bounding rect includes padding and borders, which the picture never covers.
  const left = px(style.borderLeftWidth) + px(style.paddingLeft);
  const top = px(style.borderTopWidth) + px(style.paddingTop);
  const right = px(style.borderRightWidth) + px(style.paddingRight);
  const bottom = px(style.borderBottomWidth) + px(style.paddingBottom);
  const content = {
    left: rect.left + left,
    top: rect.top + top,
    width: rect.width - left - right,
    height: rect.height - top - bottom,
  };
  return renderedImageBox(content, { width: img.naturalWidth, height: img.naturalHeight }, style.objectFit || 'fill');
}

/** Whether a focus lies inside a candidate's box, to show which object the tap chose. */
export function boxContains(box: FractionBox, focus: Focus): boolean {
  return focus.x >= box.x && focus.x <= box.x + box.width && focus.y >= box.y && focus.y <= box.y + box.height;
}
