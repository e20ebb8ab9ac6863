import { readFileSync } from 'node:fs';
import { createImageModel } from '@prodshot/imaging';
import { corpusFile } from '@prodshot/fixtures';
const engine = createImageModel({ kind: 'local' });
const photo = readFileSync(corpusFile('products', 'saleor-dash-force-1.png'));
const cutout = await engine.removeBackground(photo);
for (const size of [1024, 2048, 4096]) {
  const ms = []; let cpu;
  for (let i = 0; i < 4; i++) {
    const c0 = process.cpuUsage(); const t0 = performance.now();
    const r = await engine.generate({ cutout, prompt: 'Polished marble countertop, soft window light', size, seed: 10 + i, format: 'png', renditions: { thumbnail: 512, preview: 1280 } });
    ms.push(performance.now() - t0); cpu = process.cpuUsage(c0);
    if (i === 3) console.log(size, 'ms', ms.map(Math.round).join('/'), 'user', Math.round(cpu.user/1000), 'sys', Math.round(cpu.system/1000), 'bytes', r.image.length);
  }
}
