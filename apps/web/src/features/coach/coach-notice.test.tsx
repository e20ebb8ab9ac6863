import { coachWarning, emptyPhotoWarning, type SubjectDto } from '@prodshot/contracts';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { oneProduct } from '../../test-support/subjects.js';
import { CoachNotice } from './coach-notice.js';
import { coachWarnings } from './coach-warnings.js';

const blurry = coachWarning('blurry', 'footwear');
const cutOff = coachWarning('product_cut_off', 'footwear');

describe('CoachNotice', () => {
  it('shows nothing without warnings', () => {
    const { container } = render(<CoachNotice warnings={[]} onGoAhead={() => undefined} />);
    expect(container.innerHTML).toBe('');
  });

  it('shows each warning with its one piece of advice, and going ahead stays open', () => {
    const goAhead = vi.fn();
    const another = vi.fn();
    render(<CoachNotice warnings={[blurry, cutOff]} onGoAhead={goAhead} onChooseAnother={another} />);
    expect(screen.getByRole('heading', { name: '2 tips before you spend credits' })).toBeTruthy();
    expect(screen.getByText('This photo looks blurry.')).toBeTruthy();
    expect(screen.getByText('Step back so the whole shoe is in the frame.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Go ahead anyway' }));
    expect(goAhead).toHaveBeenCalledOnce();
    fireEvent.click(screen.getByRole('button', { name: 'Choose another photo' }));
    expect(another).toHaveBeenCalledOnce();
  });

  it('says warnings never block even where the screen’s own button is the way on', () => {
    render(<CoachNotice warnings={[blurry]} />);
    expect(screen.getByRole('heading', { name: 'A tip before you spend credits' })).toBeTruthy();
    expect(screen.getByText(/you can go ahead with this photo as it is/)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('does not call a refusal a tip the seller may go past', () => {
    render(<CoachNotice warnings={[blurry, emptyPhotoWarning('no product could be found in it', 'unknown')]} />);
    expect(
      screen.getByText('There is nothing to cut out in this photo: no product could be found in it.'),
    ).toBeTruthy();
    expect(screen.queryByText(/you can go ahead with this photo as it is/)).toBeNull();
  });

  it('holds the go-ahead while it is under way', () => {
    render(<CoachNotice warnings={[blurry]} onGoAhead={() => undefined} busy />);
    expect((screen.getByRole('button', { name: 'Go ahead anyway' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('coachWarnings', () => {
  it('takes the subject’s warnings once it has come, else the upload’s own', () => {
    const subject: SubjectDto = { ...oneProduct, coach: [blurry, cutOff] };
    expect(coachWarnings(subject, { coach: [blurry] })).toEqual([blurry, cutOff]);
    expect(coachWarnings(undefined, { coach: [blurry] })).toEqual([blurry]);
    expect(coachWarnings({ ...oneProduct }, undefined)).toEqual([]);
  });
});
