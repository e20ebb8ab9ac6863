import { SMART_STAGES, UNSUPPORTED_PRODUCT_MESSAGE, type GenerationDto, type SmartStage } from '@prodshot/contracts';

export const STAGE_LABELS: Record<SmartStage, string> = {
  analysing: 'Analysing your product',
  'designing recommendations': 'Designing style recommendations',
  generating: 'Generating your shots',
};

export type StepState = 'done' | 'current' | 'pending';

export function stepStates(generation: GenerationDto | undefined): { stage: SmartStage; state: StepState }[] {
  const finished = generation?.status === 'complete';
  const at = generation?.stage ? SMART_STAGES.indexOf(generation.stage) : 0;
  return SMART_STAGES.map((stage, index) => ({
    stage,
    state: finished || index < at ? 'done' : index === at ? 'current' : 'pending',
  }));
}

export function isFinished(generation: GenerationDto | undefined): boolean {
  return generation?.status === 'complete' || generation?.status === 'failed';
}

/** The spec's smart-flow error for a generation that ended without any image, or null. */
export function smartFailure(generation: GenerationDto | undefined): { message: string; unsupported: boolean } | null {
  if (!generation || generation.status !== 'failed') return null;
  if (generation.unsupportedProduct)
    return { message: generation.error || UNSUPPORTED_PRODUCT_MESSAGE, unsupported: true };
  if (generation.styles.some((s) => s.status === 'complete')) return null;
  if (generation.stage !== 'generating')
    return {
      message: `Failed to get style recommendations: ${generation.error ?? 'unknown error'}`,
      unsupported: false,
    };
  return { message: 'Failed to process image. Please try again.', unsupported: false };
}
