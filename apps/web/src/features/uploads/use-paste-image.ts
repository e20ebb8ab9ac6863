import { useEffect, useRef } from 'react';

/** The first file on the clipboard, whatever its type: a non-image is for the caller to refuse. */
function pastedFile(data: DataTransfer | null): File | null {
  if (!data) return null;
  const [file] = Array.from(data.files);
  if (file) return file;
  const item = Array.from(data.items ?? []).find((entry) => entry.kind === 'file');
  return item?.getAsFile() ?? null;
}

/**
 * A file pasted anywhere on the page (a screenshot, an image copied from a supplier's site) is
 * taken as if dropped. Text pasted into a field stays the field's: only a paste that carries a file
 * is taken, and then nothing else receives it.
 */
export function usePasteImage(onFile: (file: File) => void, enabled: boolean): void {
  const latest = useRef(onFile);
  latest.current = onFile;
  useEffect(() => {
    if (!enabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const file = pastedFile(event.clipboardData);
      if (!file) return;
      event.preventDefault();
      latest.current(file);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [enabled]);
}

/** The shortcut as this device spells it. */
export function pasteShortcut(platform = typeof navigator === 'undefined' ? '' : navigator.platform): string {
  return /mac|iphone|ipad/i.test(platform) ? '⌘V' : 'Ctrl+V';
}
