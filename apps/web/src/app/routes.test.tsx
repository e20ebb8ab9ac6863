import { fireEvent, screen, waitFor } from '@testing-library/react';
import type { RouteObject } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../test-support/fake-api.js';
import { renderRoutes } from '../test-support/render-routes.js';
import type { RouteHandle } from './route-effects.js';
import { appRoutes } from './routes.js';

beforeEach(() => {
  // jsdom does not scroll.
  window.scrollTo = () => undefined;
  stubApi({});
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the app routes', () => {
  it.each([
    ['/terms', '/terms-of-service', 'Terms of Service'],
    ['/privacy', '/privacy-policy', 'Privacy Policy'],
  ])('sends %s on to %s', async (from, to, title) => {
    const { router } = renderRoutes(appRoutes, [from], { auth: 'signed-out' });
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeTruthy();
    expect(router.state.location.pathname).toBe(to);
    await waitFor(() => expect(document.title).toBe(`${title} · Prodshot`));
  });

  it("moves focus to the new page's h1 after a navigation, and retitles the document", async () => {
    renderRoutes(appRoutes, ['/terms-of-service'], { auth: 'signed-out' });
    await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
    // The first page keeps the browser's own start.
    expect(document.activeElement).toBe(document.body);
    const link = screen.getByRole('link', { name: 'Privacy Policy' });
    link.focus();
    fireEvent.click(link);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(document.title).toBe('Privacy Policy · Prodshot');
  });

  it('gives every page a title of its own', () => {
    const pages = (appRoutes[0]!.children ?? []).filter((route: RouteObject) => route.handle);
    const titles = pages.map((route) => (route.handle as RouteHandle).title);
    expect(pages.length).toBeGreaterThan(15);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it('shows a page whose chunk was preloaded at once, without a loading step', async () => {
    // A page no other test here shows: its chunk is loaded for the first time by the preload.
    const notFound = (appRoutes[0]!.children ?? []).find((child) => child.path === '*');
    await (notFound!.handle as RouteHandle).preload?.();
    renderRoutes(appRoutes, ['/no-such-page'], { auth: 'signed-out' });
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
  });
});
