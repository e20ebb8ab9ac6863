import { parentPort, workerData } from 'node:worker_threads';
import { createImageModel } from '@prodshot/imaging';

/** One engine on its own thread: warms up, waits for the start signal, renders its shots, reports. */
const { cutout, prompt, shots, seed } = workerData as { cutout: Uint8Array; prompt: string; shots: number; seed: number };
const engine = createImageModel({ kind: 'local' });
const source = Buffer.from(cutout);
const render = (n: number) => engine.generate({ cutout: source, prompt, size: 1024, seed: seed + n, format: 'png' });

await render(-1);
parentPort!.postMessage('ready');
parentPort!.once('message', async () => {
  for (let n = 0; n < shots; n += 1) await render(n);
  parentPort!.postMessage('done');
});
