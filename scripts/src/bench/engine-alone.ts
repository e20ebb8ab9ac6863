import { Worker } from 'node:worker_threads';
import { createImageModel } from '@prodshot/imaging';
import { STYLE_PROMPT } from './seller.js';
import { median } from './stats.js';

/** (1) The engine alone, in this process: the time a style costs before any queue, storage or socket. */
export async function engineOnly(cutout: Buffer): Promise<number> {
  const engine = createImageModel({ kind: 'local' });
  const samples: number[] = [];
  for (let i = 0; i < 12; i += 1) {
    const started = performance.now();
    await engine.generate({ cutout, prompt: STYLE_PROMPT, size: 1024, seed: 1000 + i, format: 'png' });
    if (i >= 2) samples.push(performance.now() - started);
  }
  return median(samples);
}

/**
 * The engine alone on N threads at once, shots per second: with nothing else running, this is
 * the most N worker processes could drain on this machine, the ceiling of figure (6).
 */
export async function engineThroughput(cutout: Buffer, threads: number, shotsPerThread: number): Promise<number> {
  const workers = Array.from(
    { length: threads },
    (_, n) => new Worker(new URL('./engine-loop.js', import.meta.url), { workerData: { cutout, prompt: STYLE_PROMPT, shots: shotsPerThread, seed: 5000 + n * 100 } }),
  );
  const next = (worker: Worker) =>
    new Promise<void>((resolve, reject) => {
      worker.once('message', () => resolve());
      worker.once('error', reject);
    });
  await Promise.all(workers.map(next));
  const started = performance.now();
  const finished = workers.map(next);
  for (const worker of workers) worker.postMessage('go');
  await Promise.all(finished);
  const seconds = (performance.now() - started) / 1000;
  await Promise.all(workers.map((w) => w.terminate()));
  return (threads * shotsPerThread) / seconds;
}
