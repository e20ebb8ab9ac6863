import sharp, { type Sharp } from 'sharp';
import { isTemplateHandle, type TemplateHandle } from '@prodshot/contracts';
import { seededScene } from '../local/prompt/scene-from-prompt.js';
import { floorLine } from '../local/scenes/render-scene.js';
import { sceneImage, type SceneImage } from '../local/scenes/scene-image.js';
import type { SceneSpec } from '../local/scenes/scene-spec.js';
import { frameWindow, type FrameLayout } from './frame.js';
import { upsize } from '../local/compose/upsize.js';

/** Scenes are composed at most at this size, as shots are; larger frames are enlarged from it. */
export const MAX_COMPOSE_SIDE = 2048;

/** The local engine's scene of an output: what it was asked for and the seed it rendered with. */
export interface ExportScene {
  template?: string | null | undefined;
  prompt?: string | null | undefined;
  seed: number;
}

export interface SceneFrame {
  spec: SceneSpec;
  scene: SceneImage;
  layout: FrameLayout;
  /** Side of the square scene the frame is cut from. */
  size: number;
}

/** The scene an output was rendered in, at the size a width × height frame is composed at. */
export async function sceneFrame(source: ExportScene, width: number, height: number): Promise<SceneFrame> {
  const template: TemplateHandle | undefined = isTemplateHandle(source.template) ? source.template : undefined;
  const { spec } = seededScene(template, source.prompt ?? undefined, source.seed);
  const size = Math.min(Math.max(width, height), MAX_COMPOSE_SIDE);
  const scene = await sceneImage(spec, size, source.seed);
  const window = frameWindow(size, width, height);
  return {
    spec,
    scene,
    size,
    layout: {
      window,
      style: spec.placement,
      view: spec.view,
      floorY: floorLine(spec) * size,
      lightAzimuth: spec.light.azimuth,
    },
  };
}

/**
 * The background alone, as it appears in a width × height export: the compliance report compares
 * an export's pixels with it, so anything but the product, its shadow and its reflection shows.
 */
export async function scenePlate(source: ExportScene, width: number, height: number): Promise<Buffer> {
  const { scene, layout } = await sceneFrame(source, width, height);
  return enlarge(
    sharp(scene.rgb, { raw: { width: scene.size, height: scene.size, channels: 3 } }).extract(region(layout)),
    layout,
    width,
    height,
  )
    .raw()
    .toBuffer();
}

/**
 * The background of a square output as the local engine stored it: rendered at the compose size
 * and enlarged the way its encoder enlarges shots above it (local-model encode).
 */
export async function outputPlate(source: ExportScene, size: number): Promise<Buffer> {
  const composeSize = Math.min(size, MAX_COMPOSE_SIDE);
  const { spec } = seededScene(
    isTemplateHandle(source.template) ? source.template : undefined,
    source.prompt ?? undefined,
    source.seed,
  );
  const scene = await sceneImage(spec, composeSize, source.seed);
  let image = sharp(scene.rgb, { raw: { width: composeSize, height: composeSize, channels: 3 } });
  if (size > composeSize) image = upsize(image, size, size);
  return image.raw().toBuffer();
}

export function region(layout: FrameLayout) {
  const { window } = layout;
  return { left: window.x, top: window.y, width: window.width, height: window.height };
}

/** Brings the composed window to the frame's size (a no-op when it was composed at that size). */
export function enlarge(image: Sharp, layout: FrameLayout, width: number, height: number): Sharp {
  if (layout.window.width === width && layout.window.height === height) return image;
  return upsize(image, width, height);
}
