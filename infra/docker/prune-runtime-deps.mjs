// Drops from a production node_modules what no process in the image loads (Node built-ins only):
//   --keep-model <resource>  the worker: of @imgly/background-removal-data keep only the chunks of
//                            the graph the engine runs (packages/imaging default-weights.ts); its
//                            onnxruntime-web wasm builds and the other graph go, and so does
//                            onnxruntime-web itself (the worker runs onnxruntime-node).
//   --no-model               the API: no cutout model at all, nor the runtime that would run it.
// Both also drop onnxruntime-node's binaries for other platforms and TypeScript, which valibot
// (through bull-board) lists as an optional peer and never loads.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

const modules = path.resolve('node_modules');
const [mode, resource] = process.argv.slice(2);
const remove = (relative) => rmSync(path.join(modules, relative), { recursive: true, force: true });

remove('onnxruntime-web');
remove('typescript');
keepOnlyThisPlatformsRuntime();

if (mode === '--keep-model' && resource) keepOnlyGraph(resource);
else if (mode === '--no-model')
  for (const name of ['onnxruntime-node', '@imgly/background-removal-data', 'onnx-proto']) remove(name);
else throw new Error('usage: prune-runtime-deps.mjs --keep-model <resource> | --no-model');

function keepOnlyThisPlatformsRuntime() {
  const napi = path.join(modules, 'onnxruntime-node', 'bin', 'napi-v6');
  for (const platform of safeList(napi)) {
    for (const arch of safeList(path.join(napi, platform))) {
      if (platform !== process.platform || arch !== process.arch)
        rmSync(path.join(napi, platform, arch), { recursive: true, force: true });
    }
  }
}

function keepOnlyGraph(name) {
  const dist = path.join(modules, '@imgly', 'background-removal-data', 'dist');
  const resources = JSON.parse(readFileSync(path.join(dist, 'resources.json'), 'utf8'));
  const entry = resources[name];
  if (!entry) throw new Error(`@imgly/background-removal-data lists no ${name}`);
  const kept = new Set(['resources.json', ...entry.chunks.map((chunk) => chunk.hash)]);
  for (const file of readdirSync(dist))
    if (!kept.has(file)) rmSync(path.join(dist, file), { recursive: true, force: true });
}

function safeList(dir) {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
