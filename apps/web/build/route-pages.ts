import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin, Rolldown } from 'vite';

type OutputBundle = Rolldown.OutputBundle;
type OutputChunk = Rolldown.OutputChunk;

/** The page written for a route: `/dashboard` → `dashboard.html` (the API and nginx look for it by that name). */
export function routePageFile(route: string): string {
  return `${route.replace(/^\//, '').replaceAll('/', '-')}.html`;
}

/** The chunk and every chunk it imports statically, each once. */
function withImports(chunk: OutputChunk, chunks: Map<string, OutputChunk>): OutputChunk[] {
  const found = new Map<string, OutputChunk>();
  const visit = (next: OutputChunk) => {
    if (found.has(next.fileName)) return;
    found.set(next.fileName, next);
    for (const name of next.imports) visit(chunks.get(name)!);
  };
  visit(chunk);
  return [...found.values()];
}

/** The tags that fetch a route's chunks and stylesheets which the entry (already in app.html) does not. */
function preloadTags(bundle: OutputBundle, moduleId: string): string {
  const chunks = new Map(Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [[output.fileName, output] as const] : [])));
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
  const page = [...chunks.values()].find((chunk) => chunk.facadeModuleId === moduleId);
  if (!entry || !page) throw new Error(`route-pages: no chunk for ${moduleId}`);
  const loaded = new Set(withImports(entry, chunks).map((chunk) => chunk.fileName));
  const needed = withImports(page, chunks).filter((chunk) => !loaded.has(chunk.fileName));
  const styles = needed.flatMap((chunk) => [...(chunk.viteMetadata?.importedCss ?? [])]);
  return [
    ...styles.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`),
    ...needed.map((chunk) => `<link rel="modulepreload" crossorigin href="/${chunk.fileName}">`),
  ].join('\n    ');
}

/**
 * A page for each route a seller opens straight from the address bar (a bookmark, a reload, the
 * link in an email): app.html plus a modulepreload of the route's chunk and every chunk it imports,
 * and its stylesheets. The browser then fetches them beside index.js, not after index.js has run
 * and asked for them: on /dashboard that was 17 chunks, a round trip and a download later, and
 * the page's heading (its largest paint) waited for the last of them. `routes` maps each route to
 * its page module (from apps/web). A client-side visit loads chunks as before.
 */
export function routePages(routes: Record<string, string>): Plugin {
  let outDir = '';
  let root = '';
  const tags = new Map<string, string>();
  return {
    name: 'prodshot-route-pages',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    generateBundle(_options, bundle) {
      for (const [route, module] of Object.entries(routes)) tags.set(route, preloadTags(bundle, path.resolve(root, module)));
    },
    // After every plugin's writeBundle: app.html is written there (webp-variants.ts).
    async closeBundle() {
      const appPage = await readFile(path.join(outDir, 'app.html'), 'utf8');
      for (const [route, links] of tags) {
        await writeFile(path.join(outDir, routePageFile(route)), appPage.replace('</head>', `  ${links}\n  </head>`));
      }
    },
  };
}
