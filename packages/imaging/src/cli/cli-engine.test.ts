import { describe, expect, it } from 'vitest';
import { corpusFile } from '@prodshot/fixtures';
import { iou } from '../bench/bench-measures.js';
import { makeRealCase, REAL_BACKGROUNDS } from '../bench/real-set.js';
import { isImagingError } from '../errors.js';
import { LocalImageModel } from '../local/local-model.js';
import { cliEngine } from './cli-engine.js';

const tote = corpusFile('products', 'solidus_canvas_tote.png');
const grass = REAL_BACKGROUNDS.find((background) => background.name === 'grass')!;

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

  it('names the variable when the cutout model the config points at is not there, before loading anything', async () => {
    await expect(cliEngine({ CUTOUT_MODEL_PATH: '/nonexistent/birefnet.onnx' })).rejects.toThrow(
      /CUTOUT_MODEL_PATH names no file \(\/nonexistent\/birefnet\.onnx\)/,
    );
  });
});
