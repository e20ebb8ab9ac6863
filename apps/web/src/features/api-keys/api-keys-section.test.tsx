import type { ApiKey, CreatedApiKey } from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { formatDate, formatDateTime } from '../../lib/format.js';
import { apiError, stubApi } from '../../test-support/fake-api.js';
import { renderRoutes } from '../../test-support/render-routes.js';
import { ApiKeysSection } from './api-keys-section.js';

const used: ApiKey = {
  id: 'k1',
  name: 'Shop sync',
  scopes: ['generate', 'read'],
  prefix: 'psk_live_ab12',
  createdAt: '2026-11-20T09:00:00.000Z',
  lastUsedAt: '2026-11-26T14:30:00.000Z',
  lastUsedAddress: '203.0.113.7',
};
const unused: ApiKey = {
  ...used,
  id: 'k2',
  name: 'Nightly export',
  scopes: ['read'],
  prefix: 'psk_live_cd34',
  lastUsedAt: null,
  lastUsedAddress: null,
};
const SECRET = `psk_live_${'x'.repeat(43)}`;

function renderSection(initial: ApiKey[], routes: Record<string, (body: unknown) => unknown> = {}) {
  let keys = [...initial];
  const calls = stubApi({
    'GET /keys': () => ({ data: keys }),
    'POST /keys': (body) => {
      const { name, scopes } = body as { name: string; scopes: ApiKey['scopes'] };
      const created: CreatedApiKey = {
        ...unused,
        id: 'k3',
        name,
        scopes,
        prefix: SECRET.slice(0, 13),
        createdAt: '2026-11-27T10:00:00.000Z',
        key: SECRET,
      };
      keys = [created, ...keys];
      return new Response(JSON.stringify(created), { status: 201, headers: { 'content-type': 'application/json' } });
    },
    'DELETE /keys/k1': () => {
      keys = keys.filter((k) => k.id !== 'k1');
      return { data: { id: 'k1', revoked: true } };
    },
    ...routes,
  });
  renderRoutes([{ path: '/profile', element: <ApiKeysSection /> }], ['/profile']);
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Profile → API keys', () => {
  it('lists each key with its scopes, its first characters, when it was made and its last use and address', async () => {
    renderSection([used, unused]);
    expect(screen.getByRole('heading', { name: 'API keys' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Your API keys' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first!.textContent).toContain('Shop sync');
    expect(first!.textContent).toContain('GenerateRead');
    expect(first!.textContent).toContain('psk_live_ab12…');
    expect(first!.textContent).toContain(
      `Created ${formatDate(used.createdAt)} · Last used ${formatDateTime(used.lastUsedAt!)} from 203.0.113.7`,
    );
    expect(second!.textContent).toContain('Never used');
  });

  it('creates a key with the scopes ticked and shows it once, with Copy, until the seller is done', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const calls = renderSection([]);
    expect(await screen.findByText('No API keys yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: '  Reader bot ' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Generate/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));

    expect((await screen.findByTestId('new-api-key')).textContent).toBe(SECRET);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ name: 'Reader bot', scopes: ['read'] });
    expect(screen.getByText(/it will not be shown again/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copied to the clipboard.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(SECRET);
    const list = await screen.findByRole('list', { name: 'Your API keys' });
    expect(list.textContent).toContain('Reader bot');
    expect(list.textContent).not.toContain(SECRET);

    fireEvent.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(screen.queryByTestId('new-api-key')).toBeNull();
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('asks for a name and a scope before calling the API, and tells a refusal', async () => {
    const calls = renderSection([], { 'POST /keys': () => apiError(400, 'Name is required', 'name_required') });
    await screen.findByText('No API keys yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByRole('alert').textContent).toBe('Give the key a name.');
    fireEvent.change(screen.getByLabelText('Key name'), { target: { value: 'Bot' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Generate/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Read/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose at least one scope.');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    fireEvent.click(screen.getByRole('checkbox', { name: /Read/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Create key' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to create the key: Name is required');
  });

  it('revokes a key only once the seller confirms, then lists it no more', async () => {
    const calls = renderSection([used, unused]);
    const list = await screen.findByRole('list', { name: 'Your API keys' });
    fireEvent.click(within(list).getByRole('button', { name: 'Revoke Shop sync' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog.textContent).toContain('“Shop sync” (psk_live_ab12…) stops working at once');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Keep it' }));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);

    fireEvent.click(within(list).getByRole('button', { name: 'Revoke Shop sync' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(screen.queryByText('Shop sync')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/keys/k1']);
    expect(screen.getByText('Nightly export')).toBeTruthy();
  });
});
