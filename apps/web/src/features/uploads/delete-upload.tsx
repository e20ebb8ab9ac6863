import { useState } from 'react';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.js';
import { useDeleteImage } from './api/delete-image.js';
import type { UploadItem } from './upload-items.js';

/** Deleting an upload: asked for on a tile, confirmed in a dialog; `onFailed` tells the screen when the API refused. */
export function useDeleteUpload(onFailed: () => void) {
  const [deleting, setDeleting] = useState<UploadItem | null>(null);
  const remove = useDeleteImage({ onSettled: () => setDeleting(null), onError: onFailed });
  return { deleting, ask: setDeleting, remove };
}

export function DeleteUploadDialog({ flow }: { flow: ReturnType<typeof useDeleteUpload> }) {
  const { deleting, ask, remove } = flow;
  if (!deleting) return null;
  return (
    <ConfirmDialog
      title="Delete this image?"
      message={`“${deleting.name}” and its stored files will be deleted. Generated shots stay in your history.`}
      confirmLabel="Delete"
      busy={remove.isPending}
      onConfirm={() => remove.mutate(deleting)}
      onCancel={() => ask(null)}
    />
  );
}
