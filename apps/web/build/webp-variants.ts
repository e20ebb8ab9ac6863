import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { Plugin } from 'vite';
import { HERO, showcaseSrc, showcaseSrcSet, SHOWCASE_WIDTHS } from '../src/lib/showcase.js';

const QUALITY = 78;
const VARIANT = /^\/showcase\/([a-z0-9-]+)-(\d+)\.webp$/;

function toWebp(source: Buffer | string, width: number): Promise<Buffer> {
  return sharp(source).resize({ width, withoutEnlargement: true }).webp({ quality: QUALITY }).toBuffer();
}

/** The hero's preload tag as Vite writes it into index.html. */
const HERO_PRELOAD = new RegExp(`\\s*<link rel="preload" as="image"[^>]*href="${showcaseSrc(HERO.name)}"[^>]*>`);

/**
 * WebP copies of public/showcase's JPEGs at SHOWCASE_WIDTHS, written into the build (and made on
 * request by the dev server), plus the hero's preload in index.html, so the browser fetches the
 * largest picture of / before any script has run. Every other route is served app.html, the same
 * page without that preload: on /dashboard the hero would take a phone's bandwidth from the scripts.
 */
export function webpVariants(publicDir: string): Plugin {
  const showcaseDir = path.join(publicDir, 'showcase');
  return {
    name: 'prodshot-webp-variants',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const match = VARIANT.exec(request.url ?? '');
        if (!match || !SHOWCASE_WIDTHS.includes(Number(match[2]) as (typeof SHOWCASE_WIDTHS)[number])) return next();
        toWebp(path.join(showcaseDir, `${match[1]}.jpg`), Number(match[2])).then((webp) => {
          response.setHeader('content-type', 'image/webp');
          response.end(webp);
        }, next);
      });
    },
    async generateBundle() {
      const sources = (await readdir(showcaseDir)).filter((file) => file.endsWith('.jpg'));
      for (const file of sources) {
        const bytes = await readFile(path.join(showcaseDir, file));
        for (const width of SHOWCASE_WIDTHS) {
          this.emitFile({
            type: 'asset',
            fileName: showcaseSrc(path.basename(file, '.jpg'), width).slice(1),
            source: await toWebp(bytes, width),
          });
        }
      }
    },
    async writeBundle({ dir }) {
      if (!dir) return;
      const home = await readFile(path.join(dir, 'index.html'), 'utf8');
      if (!HERO_PRELOAD.test(home)) throw new Error("index.html lost the hero's preload: app.html would equal it");
      await writeFile(path.join(dir, 'app.html'), home.replace(HERO_PRELOAD, ''));
    },
    transformIndexHtml: () => [
      {
        tag: 'link',
        injectTo: 'head',
        attrs: {
          rel: 'preload',
          as: 'image',
          type: 'image/webp',
          href: showcaseSrc(HERO.name),
          imagesrcset: showcaseSrcSet(HERO.name),
          imagesizes: HERO.sizes,
          fetchpriority: 'high',
        },
      },
    ],
  };
}
