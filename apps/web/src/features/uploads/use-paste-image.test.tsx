import { fireEvent, render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { pasteShortcut, usePasteImage } from './use-paste-image.js';

function Paste({ onFile, enabled = true }: { onFile: (file: File) => void; enabled?: boolean }) {
  usePasteImage(onFile, enabled);
  return <input aria-label="Title" />;
}

const clipboard = (files: File[], items: unknown[] = []) => ({ clipboardData: { files, items } });

describe('usePasteImage', () => {
  it('takes a pasted file from anywhere on the page, and keeps it from the focused field', () => {
    const onFile = vi.fn();
    const view = render(<Paste onFile={onFile} />);
    const file = new File(['png'], 'image.png', { type: 'image/png' });
    const event = fireEvent.paste(view.getByLabelText('Title'), clipboard([file]));
    expect(onFile).toHaveBeenCalledWith(file);
    expect(event).toBe(false);
  });

  it('reads a file offered only as a clipboard item', () => {
    const onFile = vi.fn();
    render(<Paste onFile={onFile} />);
    const file = new File(['png'], 'image.png', { type: 'image/png' });
    fireEvent.paste(document, clipboard([], [{ kind: 'string' }, { kind: 'file', getAsFile: () => file }]));
    expect(onFile).toHaveBeenCalledWith(file);
  });

  it('leaves text pastes alone, and takes nothing while disabled', () => {
    const onFile = vi.fn();
    const view = render(<Paste onFile={onFile} />);
    expect(fireEvent.paste(view.getByLabelText('Title'), clipboard([], [{ kind: 'string' }]))).toBe(true);
    view.rerender(<Paste onFile={onFile} enabled={false} />);
    fireEvent.paste(document, clipboard([new File(['png'], 'image.png', { type: 'image/png' })]));
    expect(onFile).not.toHaveBeenCalled();
  });

  it('spells the shortcut as the device does', () => {
    expect(pasteShortcut('MacIntel')).toBe('⌘V');
    expect(pasteShortcut('iPhone')).toBe('⌘V');
    expect(pasteShortcut('Linux x86_64')).toBe('Ctrl+V');
  });
});
