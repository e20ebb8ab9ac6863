import { useRef, useState, type DragEvent } from 'react';
import { pasteShortcut } from './use-paste-image.js';
import './uploads.css';

/**
 * Drag-and-drop or click-to-select; only image/* files are taken (docs/product-spec.md §5). With `onFiles`, several
 * photos may come at once (no `capture`, so a phone offers its camera roll), and several go there.
 * With `pasteHint`, the page takes pasted images too (usePasteImage) and the zone says so.
 */
export function DropZone({
  hint,
  onFile,
  onFiles,
  onReject,
  label = 'Drag and drop your image here, or click to select',
  pasteHint = false,
}: {
  hint: string;
  onFile: (file: File) => void;
  onFiles?: (files: File[]) => void;
  onReject?: (file: File) => void;
  label?: string;
  pasteHint?: boolean;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  function take(file: File | undefined) {
    if (!file) return;
    if (file.type.startsWith('image/')) onFile(file);
    else onReject?.(file);
  }

  function takeAll(list: FileList | null | undefined) {
    const files = Array.from(list ?? []);
    if (onFiles && files.length > 1) onFiles(files);
    else take(files[0]);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setOver(false);
    takeAll(event.dataTransfer.files);
  }

  return (
    <div
      className={over ? 'dropzone dropzone-over' : 'dropzone'}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <input
        ref={input}
        id="image-input"
        type="file"
        accept="image/*"
        multiple={onFiles !== undefined}
        className="sr-only"
        onChange={(event) => {
          takeAll(event.target.files);
          event.target.value = '';
        }}
      />
      <label htmlFor="image-input" className="dropzone-label">
        <span className="dropzone-icon" aria-hidden="true">
          ⇪
        </span>
        <span className="dropzone-title">{label}</span>
        <span className="muted small">{hint}</span>
        {pasteHint && <span className="muted small dropzone-paste">or paste an image with {pasteShortcut()}</span>}
      </label>
    </div>
  );
}
