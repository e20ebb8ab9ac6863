import type { RunStatus } from '../schema.js';

// Not in generations-repository.ts, whose rule it is: history-retention.ts reads it too, and
// generations-repository.ts imports history-retention.ts, so the two would import each other.

/** The states a slot or a generation does not leave. */
export const SETTLED: RunStatus[] = ['complete', 'failed'];
