import { planRequiredMessage, PROMPT_MAX_LENGTH, type PlanRequiredErrorBody } from '@prodshot/contracts';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { enhancePrompt } from './api/enhance-prompt.js';
import { stubApi } from '../../test-support/fake-api.js';
import { PromptBox } from './prompt-box.js';

function Harness({
  initial = '',
  onEnhance = async (p: string) => `${p}, enhanced`,
  enhanceAllowed,
}: {
  initial?: string;
  onEnhance?: (p: string) => Promise<string>;
  enhanceAllowed?: boolean;
}) {
  const [value, setValue] = useState(initial);
  return <PromptBox value={value} onChange={setValue} onEnhance={onEnhance} enhanceAllowed={enhanceAllowed} />;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const textarea = () => screen.getByRole('textbox') as HTMLTextAreaElement;
const counter = () => screen.getByTestId('prompt-counter');

describe('PromptBox', () => {
  it('counts characters and turns the counter red above 900, not at 900', () => {
    render(<Harness />);
    fireEvent.change(textarea(), { target: { value: 'x'.repeat(900) } });
    expect(counter().textContent).toBe('900/1000');
    expect(counter().className).not.toContain('counter-over');
    fireEvent.change(textarea(), { target: { value: 'x'.repeat(901) } });
    expect(counter().textContent).toBe('901/1000');
    expect(counter().className).toContain('counter-over');
  });

  it('never holds more than 1000 characters', () => {
    render(<Harness />);
    expect(textarea().maxLength).toBe(PROMPT_MAX_LENGTH);
    fireEvent.change(textarea(), { target: { value: 'y'.repeat(1200) } });
    expect(textarea().value).toHaveLength(1000);
    expect(counter().textContent).toBe('1000/1000');
  });

  it('disables enhancing for an empty or whitespace-only prompt', () => {
    render(<Harness initial="   " />);
    const enhance = screen.getByRole('button', { name: /Enhance Prompt/ }) as HTMLButtonElement;
    expect(enhance.disabled).toBe(true);
    fireEvent.change(textarea(), { target: { value: 'on a beach' } });
    expect(enhance.disabled).toBe(false);
  });

  it("shows the enhanced prompt and copies it in with 'Apply Magic Prompt'", async () => {
    render(<Harness initial="on a beach" />);
    fireEvent.click(screen.getByRole('button', { name: /Enhance Prompt/ }));
    await screen.findByText('on a beach, enhanced');
    fireEvent.click(screen.getByRole('button', { name: 'Apply Magic Prompt' }));
    expect(textarea().value).toBe('on a beach, enhanced');
    expect(screen.queryByRole('button', { name: 'Apply Magic Prompt' })).toBeNull();
  });

  it('shows the screen error when enhancing fails', async () => {
    render(
      <Harness
        initial="studio"
        onEnhance={vi.fn().mockRejectedValue(new Error('Failed to enhance prompt. Please try again.'))}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: /Enhance Prompt/ }));
    expect((await screen.findByRole('alert')).textContent).toBe('Failed to enhance prompt. Please try again.');
  });

  it('fills the prompt from a chip', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('button', { name: 'Beach sunset' }));
    expect(textarea().value).toBe('Beach sunset');
  });

  it('explains, before any call, that prompt enhancement is not in the plan, with the way to upgrade', () => {
    const onEnhance = vi.fn();
    render(<Harness initial="studio" onEnhance={onEnhance} enhanceAllowed={false} />, { wrapper: MemoryRouter });
    expect((screen.getByRole('button', { name: /Enhance Prompt/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByRole('note').textContent).toContain('Prompt enhancement is part of the Growth and Pro plans.');
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe('/pricing');
    expect(onEnhance).not.toHaveBeenCalled();
  });

  it("shows the server's plan refusal with its upgrade link instead of an error", async () => {
    const refusal: PlanRequiredErrorBody = {
      statusCode: 403,
      error: 'Forbidden',
      message: planRequiredMessage('promptEnhancement'),
      code: 'plan_required',
      feature: 'promptEnhancement',
      upgradeUrl: '/pricing',
    };
    stubApi({ 'POST /images/enhance-prompt': () => new Response(JSON.stringify(refusal), { status: 403 }) });
    const enhance = async (prompt: string) => String((await enhancePrompt({ prompt })).data?.enhancedPrompt);
    render(<Harness initial="studio" onEnhance={enhance} />, { wrapper: MemoryRouter });
    fireEvent.click(screen.getByRole('button', { name: /Enhance Prompt/ }));
    expect((await screen.findByRole('note')).textContent).toContain(
      'Prompt enhancement is part of the Growth and Pro plans.',
    );
    expect(screen.getByRole('link', { name: 'Upgrade your plan' }).getAttribute('href')).toBe('/pricing');
    expect(screen.queryByRole('alert')).toBeNull();
    expect((screen.getByRole('button', { name: /Enhance Prompt/ }) as HTMLButtonElement).disabled).toBe(true);
  });
});
