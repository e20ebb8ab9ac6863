import type { CutoutModelConfig } from '@prodshot/config';
import type { ImagingErrorCode, SalientObjectModel } from '@prodshot/imaging';

/** What an engine thread needs to prepare inputs for the model, known once the model has loaded. */
export type SalientModelInfo = Omit<SalientObjectModel, 'predict'>;

/** Options of the model thread: the validated config and the cores one inference may use. */
export type ModelThreadData = CutoutModelConfig & { threads: number };

/** One inference over an engine thread's port; the input and mask buffers are transferred, not copied. */
export interface PredictRequest {
  id: number;
  input: Float32Array;
}

export type PredictReply =
  { id: number; mask: Float32Array } | { id: number; error: { code: ImagingErrorCode; message: string } };
