import type { Plugin } from 'vite';

const STYLESHEET = /<link rel="stylesheet"[^>]*href="\/([^"]+\.css)"[^>]*>/g;

/**
 * Writes the entry's stylesheet into the page itself. A linked stylesheet holds the first paint
 * until it arrives, and on a phone's link it arrives with the scripts: the chrome the page carries
 * (its header and the loading wheel) could not show before the app had run. Inline, it paints
 * as soon as the page is parsed. Pages' own stylesheets stay files, loaded with their chunks.
 */
export function inlineEntryCss(): Plugin {
  return {
    name: 'prodshot-inline-entry-css',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        return html.replace(STYLESHEET, (link, fileName: string) => {
          const asset = bundle?.[fileName];
          if (asset?.type !== 'asset') throw new Error(`index.html links ${fileName}, which the build did not emit`);
          return `<style>${String(asset.source)}</style>`;
        });
      },
    },
  };
}
