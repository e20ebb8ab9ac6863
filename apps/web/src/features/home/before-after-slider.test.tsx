import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BeforeAfterSlider } from './before-after-slider.js';

function renderSlider() {
  render(<BeforeAfterSlider before="/b.jpg" after="/a.jpg" beforeAlt="Before photo" afterAlt="After photo" />);
  return screen.getByRole('slider');
}

describe('BeforeAfterSlider', () => {
  it('starts at 50 % and has alt text on both images', () => {
    const slider = renderSlider();
    expect(slider.getAttribute('aria-valuenow')).toBe('50');
    expect(slider.getAttribute('aria-valuemin')).toBe('0');
    expect(slider.getAttribute('aria-valuemax')).toBe('100');
    expect(screen.getByAltText('Before photo')).toBeTruthy();
    expect(screen.getByAltText('After photo')).toBeTruthy();
  });

  it('moves with the keyboard and stays within 0–100 %', () => {
    const slider = renderSlider();
    expect(slider.tabIndex).toBe(0);
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(slider.getAttribute('aria-valuenow')).toBe('51');
    fireEvent.keyDown(slider, { key: 'ArrowLeft', shiftKey: true });
    expect(slider.getAttribute('aria-valuenow')).toBe('41');
    fireEvent.keyDown(slider, { key: 'End' });
    fireEvent.keyDown(slider, { key: 'ArrowRight' });
    expect(slider.getAttribute('aria-valuenow')).toBe('100');
    fireEvent.keyDown(slider, { key: 'Home' });
    fireEvent.keyDown(slider, { key: 'PageDown' });
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
  });

  it('follows a pointer drag across the frame, clamped at both edges', () => {
    const slider = renderSlider();
    const frame = slider.parentElement!;
    frame.getBoundingClientRect = () => ({
      left: 100,
      width: 200,
      top: 0,
      height: 200,
      right: 300,
      bottom: 200,
      x: 100,
      y: 0,
      toJSON: () => ({}),
    });
    fireEvent.pointerDown(frame, { clientX: 150, pointerId: 1 });
    expect(slider.getAttribute('aria-valuenow')).toBe('25');
    fireEvent.pointerMove(frame, { clientX: 250, pointerId: 1 });
    expect(slider.getAttribute('aria-valuenow')).toBe('75');
    fireEvent.pointerMove(frame, { clientX: 999, pointerId: 1 });
    expect(slider.getAttribute('aria-valuenow')).toBe('100');
    fireEvent.pointerMove(frame, { clientX: -50, pointerId: 1 });
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
    fireEvent.pointerUp(frame, { pointerId: 1 });
    fireEvent.pointerMove(frame, { clientX: 200, pointerId: 1 });
    expect(slider.getAttribute('aria-valuenow')).toBe('0');
  });
});
