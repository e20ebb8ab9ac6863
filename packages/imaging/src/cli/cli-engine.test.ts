import { describe, expect, it } from 'vitest';
import { corpusFile } from '@prodshot/fixtures';
import { iou } from '../bench/bench-measures.js';
import { makeRealCase, REAL_BACKGROUNDS } from '../bench/real-set.js';
import { isImagingError } from '../errors.js';
import { LocalImageModel } from '../local/local-model.js';
import { cliEngine } from './cli-engine.js';

const tote = corpusFile('products', 'solidus_canvas_tote.png');
const grass = REAL_BACKGROUNDS.find((background) => background.name === 'grass')!;
const figPlate = REAL_BACKGROUNDS.find((background) => background.name === 'room-fig-plate')!;

describe('the engine npm run shot and shot:sheet run', () => {
  // Loads the packaged ISNet graph (widened once into the OS temp folder) and runs it on a 960×1280 photo.
  it(
    'cuts the canvas tote out of a photo of it on grass, where the classical cutout takes its logo for the product',
    { timeout: 120_000 },
    async () => {
      // The bench's seller-like photo: the tote on a real photograph of grass, with shadow, uneven light, noise and a phone's JPEG.
      const photo = await makeRealCase(tote, grass);
      const truth = { data: photo.truth, width: photo.width, height: photo.height };

      // The photo has to be one the classical cutout gets wrong, or it could not tell the two engines apart.
      const classical = await new LocalImageModel().removeBackground(photo.photo).then(
        (cutout) => iou(truth, cutout),
        (error: unknown) => (isImagingError(error) && error.code === 'empty_image' ? 0 : Promise.reject(error)),
      );
      expect(classical).toBeLessThan(0.5);

      // A clean environment: the defaults the worker runs with, not whatever the shell running the tests exports.
      const engine = await cliEngine({});
      const finding = await engine.findProduct(photo.photo);
      expect(finding.subject).toMatchObject({ needsFocus: false });
      expect(await iou(truth, await engine.removeBackground(photo.photo))).toBeGreaterThan(0.97);
      const shot = await engine.generate({ image: photo.photo, template: 'marble', seed: 1 });
      expect(shot).toMatchObject({ width: 1024, height: 1024, format: 'png', background: { scene: 'marble' } });
    },
  );

  it(
    'removes the red plate the tote stands against with one drop tap on the plate, its shadow with it',
    { timeout: 120_000 },
    async () => {
      // The tote large at the left, in front of the plate's rim: the model draws tote, plate and the plate's shadow as one object.
      const touching = {
        ...figPlate,
        name: 'room-fig-plate-touching',
        stands: [{ x: [0.22, 0.22], y: [0.95, 0.95], scale: [0.6, 0.6] }],
      } as const;
      const photo = await makeRealCase(tote, touching);
      const truth = { data: photo.truth, width: photo.width, height: photo.height };
      const engine = await cliEngine({});
      expect(await iou(truth, await engine.removeBackground(photo.photo))).toBeLessThan(0.3);

      // Before the drop tap picked the tote out, its far corner stood for it and the plate's shadow and rim came along (IoU 0.45).
      const plate = { x: 0.75, y: 0.55, keep: false };
      expect(await iou(truth, await engine.removeBackground(photo.photo, { taps: [plate] }))).toBeGreaterThan(0.9);
    },
  );

  it('names the variable when the cutout model the config points at is not there, before loading anything', async () => {
    await expect(cliEngine({ CUTOUT_MODEL_PATH: '/nonexistent/birefnet.onnx' })).rejects.toThrow(
      /CUTOUT_MODEL_PATH names no file \(\/nonexistent\/birefnet\.onnx\)/,
    );
  });
});
