import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { DASHBOARD_MAX_BYTES, imageFileProblem } from '../../lib/image-intake.js';
import { useImage } from './api/get-image.js';
import { useImages } from './api/get-images.js';
import { storedSelection, type StoredSelection, type UploadItem } from './upload-items.js';

/**
 * An upload handed over from another page (docs/product-spec.md §2's selectedImage), by its ids only: a signed
 * link kept in history would have expired by the time Back or a reload brings the state again.
 */
interface SelectedImageState {
  selectedImage?: { id: string; fileId: string; name?: string; createdAt?: string; imageId?: string };
}

/** Where focus goes once the chosen image's card, or the drop zone, has taken the place of what had it. */
type FocusTarget = 'selected' | 'dropzone' | null;

/**
 * The dashboard's photo: a fresh file (dropped, picked, pasted or taken) or a stored upload, its
 * preview, its product title, the camera and the error under them.
 */
export function usePhotoSelection() {
  const navigate = useNavigate();
  const location = useLocation();
  const images = useImages();
  const [file, setFile] = useState<File | null>(null);
  const [filePreview, setFilePreview] = useState<string | null>(null);
  const [stored, setStored] = useState<StoredSelection | null>(null);
  // A stored upload's links come from the API: from the list when it holds the upload, else asked for.
  const storedImage = useImage(stored?.imageId ?? null, {
    initialData: () => {
      const listed = images.data?.data.find((image) => image._id === stored?.imageId);
      return listed ? { data: listed } : undefined;
    },
    initialDataUpdatedAt: () => images.dataUpdatedAt,
  });
  const preview = file ? filePreview : stored ? (storedImage.data?.data.originalImage.previewUrl ?? null) : null;
  const [cameraOn, setCameraOn] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [focusTarget, setFocusTarget] = useState<FocusTarget>(null);
  const selectedCard = useRef<HTMLDivElement>(null);
  const [title, setTitle] = useState('');
  // A stored upload comes with the title the seller gave it; a fresh file starts without one.
  const storedTitle = stored ? (storedImage.data?.data.productTitle ?? '') : '';
  useEffect(() => setTitle(storedTitle), [stored?.imageId, storedTitle]);

  // The control that had focus (the file input, 'Choose another image') is gone once the
  // screen changes: focus follows to what took its place rather than falling back to <body>.
  useEffect(() => {
    if (!focusTarget) return;
    if (focusTarget === 'selected') selectedCard.current?.focus();
    else document.getElementById('image-input')?.focus();
    setFocusTarget(null);
  }, [focusTarget]);

  // A navigation from elsewhere may hand over an image to continue with; the URL is then reset.
  useEffect(() => {
    const selected = (location.state as SelectedImageState | null)?.selectedImage;
    if (!selected) return;
    setFile(null);
    setStored(
      storedSelection({
        imageId: selected.imageId ?? selected.id,
        fileId: selected.fileId,
        name: selected.name,
        createdAt: selected.createdAt,
      }),
    );
    navigate('/dashboard', { replace: true, state: null });
  }, [location.state, navigate]);

  // Object URLs are released when replaced or on leaving.
  useEffect(() => {
    if (!filePreview) return;
    return () => URL.revokeObjectURL(filePreview);
  }, [filePreview]);

  const chooseFile = useCallback((chosen: File) => {
    setCameraOn(false);
    setError(null);
    setStored(null);
    setFile(chosen);
    setFilePreview(URL.createObjectURL(chosen));
    setFocusTarget('selected');
  }, []);

  // Dropped, picked or pasted: checked here, before anything is sent.
  const accept = useCallback(
    (chosen: File) => {
      const problem = imageFileProblem(chosen, DASHBOARD_MAX_BYTES);
      if (problem) return setError(problem);
      chooseFile(chosen);
    },
    [chooseFile],
  );

  function reuse(item: UploadItem) {
    setCameraOn(false);
    setError(null);
    setFile(null);
    setFilePreview(null);
    setStored(storedSelection(item));
  }

  function chooseAnother() {
    setFile(null);
    setFilePreview(null);
    setStored(null);
    setFocusTarget('dropzone');
  }

  const onCameraError = useCallback((message: string) => {
    setCameraOn(false);
    setError(message);
  }, []);

  return {
    images,
    file,
    stored,
    storedImage,
    preview,
    cameraOn,
    setCameraOn,
    onCameraError,
    error,
    setError,
    selectedCard,
    title,
    setTitle,
    chooseFile,
    accept,
    reuse,
    chooseAnother,
  };
}
