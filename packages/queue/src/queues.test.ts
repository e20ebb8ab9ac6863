import { describe, expect, it } from 'vitest';
import { JOB_QUEUE, QUEUE_JOBS, QUEUE_NAMES } from './queues.js';

describe('the job → queue map', () => {
  it('puts each job on exactly one queue', () => {
    const listed = QUEUE_NAMES.flatMap((queue) => QUEUE_JOBS[queue]);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('sends renders to render and quick calls to interactive', () => {
    expect(JOB_QUEUE).toEqual({
      'product-shot': 'render',
      'style-recommendation': 'interactive',
      'style-shot': 'render',
      'remove-background': 'render',
      'generate-background': 'render',
      'enhance-prompt': 'interactive',
      'analyse-upload': 'interactive',
      'make-renditions': 'render',
      'sweep-stale-generations': 'interactive',
      'purge-expired-history': 'interactive',
      'export-shot': 'render',
      'compliance-check': 'render',
    });
  });
});
