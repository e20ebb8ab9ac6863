import type { ImagingErrorCode } from '@prodshot/imaging';

/** What an engine thread needs to prepare inputs for the model, known once the model has loaded. */
export interface SalientModelInfo {
  description: string;
  inputWidth: number;
  inputHeight: number;
  mean: readonly [number, number, number];
  std: readonly [number, number, number];
}

/** Options of the model thread, from the validated config. */
export interface ModelThreadData {
  path: string | undefined;
  family: 'isnet' | 'birefnet';
  cacheDir: string;
  threads: number;
}

/** One inference over an engine thread's port; the input and mask buffers are transferred, not copied. */
export interface PredictRequest {
  id: number;
  input: Float32Array;
}

export type PredictReply = { id: number; mask: Float32Array } | { id: number; error: { code: ImagingErrorCode; message: string } };
