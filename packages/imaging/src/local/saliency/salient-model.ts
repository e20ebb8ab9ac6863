/**
 * A salient-object segmentation model (ISNet, BiRefNet, …): a photo in, a [0, 1] mask of the
 * object that stands out. The engine prepares the input and reads the mask; an implementation
 * only runs the graph, so it can live in another thread or process.
 */
export interface SalientObjectModel {
  /** Where the weights came from, for logs and /health. */
  readonly description: string;
  /** The graph's input size, read from the graph. */
  readonly inputWidth: number;
  readonly inputHeight: number;
  /** Per-channel normalisation the graph was trained with: value = (v / 255 − mean) / std. */
  readonly mean: readonly [number, number, number];
  readonly std: readonly [number, number, number];
  /**
   * `input` is planar float32 RGB (1×3×H×W), normalised. Resolves to H×W float32 in [0, 1].
   * Rejects with a `ModelFailedError` when the model cannot run.
   */
  predict(input: Float32Array): Promise<Float32Array>;
}
