import type { GenerationDto, ServerToClientEvents, StyleEvent, StyleSlotDto } from '@prodshot/contracts';

type StageEvent = Parameters<ServerToClientEvents['generation:stage']>[0];
type DoneEvent = Parameters<ServerToClientEvents['generation:done']>[0];

/** A generation first heard of through the socket, before its GET has answered. */
function skeleton(id: string): GenerationDto {
  return {
    id,
    kind: 'smart',
    status: 'running',
    stage: null,
    imageId: null,
    productInfo: null,
    error: null,
    unsupportedProduct: false,
    styles: [],
    createdAt: new Date().toISOString(),
  };
}

function slot(index: number, name = `Style ${index + 1}`): StyleSlotDto {
  return {
    index,
    name,
    prompt: null,
    status: 'queued',
    progress: 0,
    url: null,
    thumbnailUrl: null,
    previewUrl: null,
    error: null,
  };
}

export function applyStage(current: GenerationDto | undefined, event: StageEvent): GenerationDto {
  const base = current ?? skeleton(event.generationId);
  let styles = base.styles;
  if (event.styles) {
    styles = event.styles.map((s) => {
      const existing = base.styles.find((b) => b.index === s.index);
      return existing ? { ...existing, name: s.name } : slot(s.index, s.name);
    });
  }
  return { ...base, stage: event.stage, productInfo: event.productInfo ?? base.productInfo, styles };
}

export function applyStyle(current: GenerationDto | undefined, event: StyleEvent): GenerationDto {
  const base = current ?? skeleton(event.generationId);
  const styles = base.styles.some((s) => s.index === event.index)
    ? [...base.styles]
    : [...base.styles, slot(event.index)];
  const i = styles.findIndex((s) => s.index === event.index);
  const previous = styles[i]!;
  // A finished slot never moves back: a late 'progress' must not undo 'Complete!'.
  if (previous.status === 'complete' || previous.status === 'failed') return base;
  switch (event.status) {
    case 'queued':
    case 'running':
      styles[i] = { ...previous, status: event.status };
      break;
    case 'progress':
      styles[i] = { ...previous, status: 'running', progress: event.progress };
      break;
    case 'complete':
      styles[i] = {
        ...previous,
        status: 'complete',
        progress: 100,
        url: event.url,
        thumbnailUrl: event.thumbnailUrl,
        previewUrl: event.previewUrl,
      };
      break;
    case 'failed':
      styles[i] = { ...previous, status: 'failed', error: event.error };
      break;
  }
  styles.sort((a, b) => a.index - b.index);
  return { ...base, stage: base.stage ?? 'generating', styles };
}

export function applyDone(current: GenerationDto | undefined, event: DoneEvent): GenerationDto {
  const base = current ?? skeleton(event.generationId);
  return { ...base, status: event.status, error: event.error };
}
