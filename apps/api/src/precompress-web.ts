import { precompressDir } from './plugins/precompress.js';

// `node apps/api/dist/precompress-web.js apps/web/dist`: the image build compresses the web build
// once, where the API (as an unprivileged user) could not write beside it.
const dir = process.argv[2];
if (!dir) {
  console.error('usage: precompress-web <web build folder>');
  process.exit(2);
}
console.log(`precompressed ${await precompressDir(dir)} files in ${dir}`);
