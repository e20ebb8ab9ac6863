import type { ImagingError } from '../errors.js';

/** Reports an error that only the service's operator can fix (quota, model name, a request we built wrong). */
export type OperatorAlert = (error: ImagingError, detail: { status: number; body: unknown }) => void;

/**
 * One line on stderr, in the shape of the worker's JSON logs: the adapters run in engine threads,
 * out of reach of the worker's logger, and a seller only sees that the operator was told.
 */
export const alertOperator: OperatorAlert = (error, detail) => {
  console.error(
    JSON.stringify({
      level: 60,
      time: Date.now(),
      msg: `operator action needed: ${error.message}`,
      code: error.code,
      problem: 'problem' in error ? error.problem : undefined,
      providerStatus: detail.status,
      providerBody: detail.body,
    }),
  );
};
