import { useEffect, useRef, useState } from 'react';
import './camera.css';

export const CAMERA_ERROR = 'Camera access denied or not available. Please check your browser permissions.';
export const CAMERA_JPEG_QUALITY = 0.9;
export const cameraFileName = (at = Date.now()) => `camera-capture-${at}.jpg`;

/** Live preview from the rear camera when there is one; the stream is stopped on capture, cancel or unmount. */
export function CameraCapture({
  onCapture,
  onCancel,
  onError,
}: {
  onCapture: (file: File) => void;
  onCancel: () => void;
  onError: (message: string) => void;
}) {
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    if (!navigator.mediaDevices?.getUserMedia) {
      onError(CAMERA_ERROR);
      return;
    }
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false })
      .then((media) => {
        if (cancelled) return media.getTracks().forEach((track) => track.stop());
        stream.current = media;
        if (video.current) {
          video.current.srcObject = media;
          void video.current.play().catch(() => {});
        }
        setReady(true);
      })
      .catch(() => {
        if (!cancelled) onError(CAMERA_ERROR);
      });
    return () => {
      cancelled = true;
      stream.current?.getTracks().forEach((track) => track.stop());
      stream.current = null;
    };
  }, [onError]);

  function capture() {
    const source = video.current;
    if (!source || !source.videoWidth) return;
    const canvas = document.createElement('canvas');
    canvas.width = source.videoWidth;
    canvas.height = source.videoHeight;
    canvas.getContext('2d')?.drawImage(source, 0, 0);
    canvas.toBlob(
      (blob) => {
        stream.current?.getTracks().forEach((track) => track.stop());
        stream.current = null;
        if (blob) onCapture(new File([blob], cameraFileName(), { type: 'image/jpeg', lastModified: Date.now() }));
      },
      'image/jpeg',
      CAMERA_JPEG_QUALITY,
    );
  }

  return (
    <div className="camera">
      <video ref={video} playsInline muted aria-label="Camera preview" />
      <div className="camera-controls">
        <button type="button" className="button button-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="shutter" onClick={capture} disabled={!ready} aria-label="Take the photo" />
      </div>
    </div>
  );
}
