import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Spinner } from '../components/ui/spinner.js';
import { stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import indexHtml from '../../index.html?raw';
import { Layout } from './layout.js';

/** index.html's #root: the chrome the page paints before any script has run (and app.html, made from it). */
function firstFrame(): Element {
  const root = new DOMParser().parseFromString(indexHtml, 'text/html').getElementById('root');
  if (!root) throw new Error('index.html has no #root');
  return root;
}

/** An element as a seller and a screen reader meet it: tag, classes, text, the names, roles and links it carries, and its children. */
function seen(element: Element | null | undefined): unknown {
  if (!element) return null;
  const attributes = ['class', 'role', 'aria-live', 'aria-label', 'aria-hidden', 'href'];
  return {
    tag: element.tagName,
    ...Object.fromEntries(attributes.map((name) => [name, element.getAttribute(name)])),
    text: element.textContent?.trim(),
    children: [...element.children].map(seen),
  };
}

describe("index.html's first frame", () => {
  it("is the layout's own brand, so the header does not change when the app takes over", () => {
    stubApi({});
    renderRoutes([{ element: <Layout />, children: [{ path: '/dashboard', element: null }] }], ['/dashboard'], {
      auth: 'loading',
    });
    expect(seen(firstFrame().querySelector('.page > .header > .header-inner > .brand'))).toEqual(
      seen(document.querySelector('.page > .header > .header-inner > .brand')),
    );
  });

  it("waits with the app's own full-page spinner, under the same label", () => {
    const { container } = render(<Spinner label="Loading the page" fullPage />);
    const spinner = firstFrame().querySelector('.page > main.main > .spinner-page');
    expect(seen(spinner)).toEqual(seen(container.firstElementChild));
  });
});
