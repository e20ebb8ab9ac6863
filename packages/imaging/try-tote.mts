import sharp from 'sharp';
import { cliEngine } from './src/cli/cli-engine.ts';
const W = 1280;
const room = await sharp('/work/main/bench/real-photos/room-fig-plate-concrete.jpg').resize(W).toBuffer();
const rm = await sharp(room).metadata();
const tote = await sharp('/work/main/packages/fixtures/corpus/products/solidus_canvas_tote.png').resize(560).toBuffer();
const tm = await sharp(tote).metadata();
const left = 30, top = Math.round(rm.height - tm.height - 40);
const photo = await sharp(room).composite([{ input: tote, left, top }]).jpeg({ quality: 85 }).toBuffer();
await sharp(photo).png().toFile('/tmp/tote/photo.png');
console.log(rm.width, rm.height, 'tote box', left, top, tm.width, tm.height);
const engine = await cliEngine();
const toteTap = { x: (left + tm.width * 0.5) / rm.width, y: (top + tm.height * 0.6) / rm.height, keep: true };
const plateTap = { x: 0.75, y: 0.55, keep: false };
for (const [name, taps] of [['none', undefined], ['keep', [toteTap]], ['drop', [plateTap]], ['both', [toteTap, plateTap]]]) {
  const t = performance.now();
  try {
    const cut = await engine.removeBackground(photo, taps ? { taps } : undefined);
    await sharp(cut).resize(640).flatten({ background: '#00ff00' }).png().toFile(`/tmp/tote/cut-${name}.png`);
    console.log(name, Math.round(performance.now() - t), 'ms');
  } catch (e) { console.log(name, 'error', e.code, e.message); }
}
process.exit(0);
