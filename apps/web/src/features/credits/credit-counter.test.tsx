import type { SubscriptionResponse } from '@prodshot/contracts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { formatDate } from '../../lib/format.js';
import { CreditCounter } from './credit-counter.js';

const growth: SubscriptionResponse = {
  subscription: {
    plan: 'growth',
    status: 'active',
    startDate: null,
    endDate: null,
    pendingPlan: null,
    cancelAtPeriodEnd: false,
  },
  subscriptionCredits: 750,
  addOnCredits: 100,
  currentPlan: 'growth',
  isActive: true,
  effectivePlan: 'growth',
};

function renderCounter(props: Parameters<typeof CreditCounter>[0]) {
  return render(
    <MemoryRouter initialEntries={['/dashboard']}>
      <Routes>
        <Route path="/dashboard" element={<CreditCounter {...props} />} />
        <Route path="/pricing" element={<h1>Pricing page</h1>} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('CreditCounter', () => {
  it("shows '...' while loading and 'Loading credits...' in its hover panel", () => {
    renderCounter({ data: undefined, loading: true });
    expect(screen.getByTestId('credit-total').textContent).toBe('...');
    fireEvent.mouseEnter(screen.getByRole('button').parentElement!);
    expect(screen.getByRole('tooltip').textContent).toContain('Credit Details');
    expect(screen.getByText('Loading credits...')).toBeTruthy();
  });

  it('shows subscription plus add-on credits, and the plan and both amounts on hover until the pointer leaves', () => {
    renderCounter({ data: growth, loading: false });
    expect(screen.getByTestId('credit-total').textContent).toBe('850');
    const wrapper = screen.getByRole('button').parentElement!;
    fireEvent.mouseEnter(wrapper);
    const panel = screen.getByRole('tooltip');
    expect(panel.textContent).toContain('Growth Plan');
    expect(panel.textContent).toContain('750');
    expect(panel.textContent).toContain('100');
    fireEvent.mouseLeave(wrapper);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });

  it("reads 'No Subscription' without a plan", () => {
    renderCounter({
      data: {
        ...growth,
        subscription: { ...growth.subscription, plan: 'none' },
        subscriptionCredits: 0,
        addOnCredits: 0,
      },
      loading: false,
    });
    expect(screen.getByTestId('credit-total').textContent).toBe('0');
    fireEvent.focus(screen.getByRole('button'));
    expect(screen.getByRole('tooltip').textContent).toContain('No Subscription');
  });

  it('tells of a scheduled plan change and its date, and of the end of a cancelled plan', () => {
    const endDate = '2026-12-23T10:00:00.000Z';
    renderCounter({
      data: { ...growth, subscription: { ...growth.subscription, endDate, pendingPlan: 'pro' } },
      loading: false,
    });
    fireEvent.mouseEnter(screen.getByRole('button').parentElement!);
    expect(screen.getByRole('tooltip').textContent).toContain('Growth Plan');
    expect(screen.getByTestId('plan-change').textContent).toBe(`Changes to Pro Plan on ${formatDate(endDate)}`);
    cleanup();

    renderCounter({
      data: {
        ...growth,
        subscription: { ...growth.subscription, status: 'canceled', endDate, cancelAtPeriodEnd: true },
      },
      loading: false,
    });
    fireEvent.mouseEnter(screen.getByRole('button').parentElement!);
    expect(screen.getByTestId('plan-change').textContent).toBe(`Ends on ${formatDate(endDate)}`);
  });

  it('says nothing of a change when the plan simply renews', () => {
    renderCounter({
      data: { ...growth, subscription: { ...growth.subscription, endDate: '2026-12-23T10:00:00.000Z' } },
      loading: false,
    });
    fireEvent.mouseEnter(screen.getByRole('button').parentElement!);
    expect(screen.queryByTestId('plan-change')).toBeNull();
  });

  it('goes to /pricing when clicked', () => {
    renderCounter({ data: growth, loading: false });
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('heading', { name: 'Pricing page' })).toBeTruthy();
  });

  it('opens by tap on a touch screen, goes to /pricing on a second tap, and closes on a tap elsewhere', () => {
    renderCounter({ data: growth, loading: false });
    const button = screen.getByRole('button');
    // A tap as a touch browser delivers it: the pointer, then the emulated hover, focus and click.
    const tap = () => {
      fireEvent.pointerDown(button, { pointerType: 'touch' });
      fireEvent.mouseEnter(button.parentElement!);
      fireEvent.focus(button);
      fireEvent.click(button);
    };
    tap();
    expect(screen.getByRole('tooltip').textContent).toContain('Growth Plan');
    expect(screen.queryByRole('heading', { name: 'Pricing page' })).toBeNull();

    fireEvent.mouseLeave(button.parentElement!);
    fireEvent.blur(button);
    expect(screen.queryByRole('tooltip')).toBeNull();

    tap();
    tap();
    expect(screen.getByRole('heading', { name: 'Pricing page' })).toBeTruthy();
  });

  it('still goes to /pricing on the first mouse click and keeps the hover panel open while focus moves inside it', () => {
    renderCounter({ data: growth, loading: false });
    const button = screen.getByRole('button');
    fireEvent.mouseEnter(button.parentElement!);
    fireEvent.blur(button, { relatedTarget: screen.getByRole('tooltip') });
    expect(screen.getByRole('tooltip')).toBeTruthy();
    fireEvent.pointerDown(button, { pointerType: 'mouse' });
    fireEvent.click(button);
    expect(screen.getByRole('heading', { name: 'Pricing page' })).toBeTruthy();
  });
});
