import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isTemplateHandle, TEMPLATE_HANDLES } from '@prodshot/contracts';
import { SHOT_SIZES } from '../types.js';
import type { ShotSize } from '../types.js';
import { cliEngine, describeFailure } from './cli-engine.js';

const USAGE = `Usage: npm run shot -- <input> (--template <${TEMPLATE_HANDLES.join('|')}> | --prompt "...") [--out shot.png] [--size 1024|2048|4096] [--seed N]`;

/** Makes one shot with the worker's engine (ML cutout included), for trying scenes by hand. */
async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      template: { type: 'string' },
      prompt: { type: 'string' },
      out: { type: 'string', default: 'shot.png' },
      size: { type: 'string', default: '1024' },
      seed: { type: 'string', default: '1' },
    },
  });
  const input = positionals[0];
  const size = Number(values.size);
  if (
    !input ||
    (values.template && !isTemplateHandle(values.template)) ||
    !(SHOT_SIZES as readonly number[]).includes(size)
  ) {
    console.error(USAGE);
    return 2;
  }
  // npm runs workspace scripts inside the package; paths are meant relative to where the user typed.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const out = resolve(cwd, values.out!);
  const engine = await cliEngine();
  // Timed from here, as before: loading the cutout model is a once-per-process cost, not the shot's.
  const started = performance.now();
  const shot = await engine.generate({
    image: await readFile(resolve(cwd, input)),
    template: values.template && isTemplateHandle(values.template) ? values.template : undefined,
    prompt: values.prompt,
    size: size as ShotSize,
    seed: Number(values.seed),
    format: /\.jpe?g$/i.test(out) ? 'jpeg' : 'png',
  });
  await writeFile(out, shot.image);
  console.log(
    `${out}: ${shot.width}×${shot.height} ${shot.format}, scene '${shot.background.scene}' (${shot.background.description}), ${Math.round(performance.now() - started)} ms`,
  );
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(describeFailure(error));
    process.exit(1);
  },
);
