import sharp from 'sharp';
import { cliEngine } from './src/cli/cli-engine.ts';
const W = 1024;
const engine = await cliEngine();
const room = await sharp('/work/main/bench/real-photos/room-fig-plate-concrete.jpg').resize(W).toBuffer();
const rm = await sharp(room).metadata();
const variants = [
  { name: 'a', toteW: 420, left: 200, topFromBottom: 30, drop: { x: 0.78, y: 0.45 } },
  { name: 'b', toteW: 420, left: 40, topFromBottom: 60, drop: { x: 0.8, y: 0.6 } },
  { name: 'c', toteW: 420, left: 40, topFromBottom: 60, drop: { x: 0.45, y: 0.25 } },
];
for (const v of variants) {
  const tote = await sharp('/work/main/packages/fixtures/corpus/products/solidus_canvas_tote.png').resize(v.toteW).toBuffer();
  const tm = await sharp(tote).metadata();
  const photo = await sharp(room).composite([{ input: tote, left: v.left, top: rm.height! - tm.height! - v.topFromBottom }]).jpeg({ quality: 85 }).toBuffer();
  const t = performance.now();
  const cut = await engine.removeBackground(photo, { taps: [{ ...v.drop, keep: process.env.K === '1' }] });
  const img = await sharp(cut).resize(400).flatten({ background: '#00ff00' }).png().toBuffer();
  const ph = await sharp(photo).resize(400).toBuffer();
  await sharp({ create: { width: 800, height: 271, channels: 3, background: '#fff' } }).composite([{ input: ph, left: 0, top: 0 }, { input: img, left: 400, top: 0 }]).png().toFile(`/tmp/tote/k-${v.name}.png`);
  console.log(v.name, Math.round(performance.now() - t), 'ms');
}
process.exit(0);
