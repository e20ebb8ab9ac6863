import type { CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint } from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, stubApi } from '../../test-support/fake-api.js';
import { renderRoutes } from '../../test-support/render-routes.js';
import { WebhooksSection } from './webhooks-section.js';

const shop: WebhookEndpoint = {
  id: 'w1',
  url: 'https://shop.example.com/hook',
  events: ['generation.completed', 'credits.low'],
  creditsLowThreshold: 10,
  createdAt: '2026-11-20T09:00:00.000Z',
};
const SECRET = `whsec_${'s'.repeat(32)}`;
const failed: WebhookDelivery = {
  id: 'd1',
  eventId: 'evt_1',
  eventType: 'generation.completed',
  status: 'failed',
  attempts: 20,
  lastError: 'The receiver answered 503',
  lastStatusCode: 503,
  lastAttemptAt: '2026-11-26T14:30:00.000Z',
  nextAttemptAt: null,
  createdAt: '2026-11-25T14:30:00.000Z',
};
const delivered: WebhookDelivery = {
  ...failed,
  id: 'd2',
  eventId: 'evt_2',
  eventType: 'credits.low',
  status: 'delivered',
  attempts: 1,
  lastError: null,
  lastStatusCode: 204,
};

function renderSection(initial: WebhookEndpoint[], routes: Record<string, (body: unknown) => unknown> = {}) {
  let endpoints = [...initial];
  const calls = stubApi({
    'GET /webhooks': () => ({ data: endpoints }),
    'POST /webhooks': (body) => {
      const created: CreatedWebhookEndpoint = {
        ...shop,
        id: 'w2',
        creditsLowThreshold: null,
        ...(body as object),
        secret: SECRET,
      } as CreatedWebhookEndpoint;
      endpoints = [created, ...endpoints];
      return new Response(JSON.stringify(created), { status: 201, headers: { 'content-type': 'application/json' } });
    },
    'DELETE /webhooks/w1': () => {
      endpoints = endpoints.filter((e) => e.id !== 'w1');
      return { data: { id: 'w1', deleted: true } };
    },
    'GET /webhooks/w1/deliveries': () => ({ data: [failed, delivered] }),
    'POST /webhooks/w1/deliveries/d1/retry': () => ({ data: { ...failed, status: 'pending' } }),
    ...routes,
  });
  renderRoutes([{ path: '/profile', element: <WebhooksSection /> }], ['/profile']);
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Profile → Webhooks', () => {
  it('adds an endpoint with the events ticked and its threshold, and shows its secret once, with Copy', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const calls = renderSection([]);
    expect(screen.getByRole('heading', { name: 'Webhooks' })).toBeTruthy();
    expect(await screen.findByText('No webhook endpoints yet.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Endpoint URL'), { target: { value: ' https://shop.example.com/hook ' } });
    expect(screen.queryByLabelText(/credits threshold|below this many credits/)).toBeNull();
    fireEvent.click(screen.getByRole('checkbox', { name: /Generation failed/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Credits low/ }));
    fireEvent.change(screen.getByLabelText('Send credits.low below this many credits'), { target: { value: '25' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));

    expect((await screen.findByTestId('new-webhook-secret')).textContent).toBe(SECRET);
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      url: 'https://shop.example.com/hook',
      events: ['generation.completed', 'credits.low'],
      creditsLowThreshold: 25,
    });
    expect(screen.getByText(/it will not be shown again/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await screen.findByText('Copied to the clipboard.')).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith(SECRET);
    const list = await screen.findByRole('list', { name: 'Your webhook endpoints' });
    expect(list.textContent).toContain('https://shop.example.com/hook');
    expect(list.textContent).not.toContain(SECRET);
    fireEvent.click(screen.getByRole('button', { name: 'I have copied it' }));
    expect(document.body.textContent).not.toContain(SECRET);
  });

  it('asks for a URL and an event before calling the API, and tells a refusal in its own words', async () => {
    const calls = renderSection([], {
      'POST /webhooks': () => apiError(400, 'Webhook URLs must start with https://.', 'webhook_url_https'),
    });
    await screen.findByText('No webhook endpoints yet.');
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(screen.getByRole('alert').textContent).toBe('Enter the URL to send events to.');
    fireEvent.change(screen.getByLabelText('Endpoint URL'), { target: { value: 'http://shop.example.com' } });
    fireEvent.click(screen.getByRole('checkbox', { name: /Generation completed/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Generation failed/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect(screen.getByRole('alert').textContent).toBe('Choose at least one event.');
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);

    fireEvent.click(screen.getByRole('checkbox', { name: /Batch completed/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Add endpoint' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to add the endpoint: Webhook URLs must start with https://.',
    );
  });

  it("lists an endpoint's deliveries with status, attempts and last error, and sends one again", async () => {
    const calls = renderSection([shop]);
    const list = await screen.findByRole('list', { name: 'Your webhook endpoints' });
    expect(list.textContent).toContain('Generation completed, Credits low (below 10 credits)');
    // Read only once opened.
    expect(calls.some((c) => c.path.endsWith('/deliveries'))).toBe(false);
    fireEvent.click(within(list).getByRole('button', { name: 'Recent deliveries' }));
    const deliveries = await screen.findByRole('list', { name: 'Deliveries to https://shop.example.com/hook' });
    const [first, second] = within(deliveries).getAllByRole('listitem');
    expect(first!.textContent).toContain('Generation completed');
    expect(first!.textContent).toContain('Failed');
    expect(first!.textContent).toContain('20 attempts');
    expect(first!.textContent).toContain('HTTP 503');
    expect(first!.textContent).toContain('The receiver answered 503');
    expect(second!.textContent).toContain('Delivered');
    expect(second!.textContent).toContain('1 attempt');
    fireEvent.click(within(first!).getByRole('button', { name: /^Send again: Generation completed of / }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual(['/webhooks/w1/deliveries/d1/retry']),
    );
  });

  it('deletes an endpoint only once the seller confirms', async () => {
    const calls = renderSection([shop]);
    const list = await screen.findByRole('list', { name: 'Your webhook endpoints' });
    fireEvent.click(within(list).getByRole('button', { name: 'Delete https://shop.example.com/hook' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: /Keep|Cancel/ }));
    expect(calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    fireEvent.click(within(list).getByRole('button', { name: 'Delete https://shop.example.com/hook' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No webhook endpoints yet.')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual(['/webhooks/w1']);
  });
});
