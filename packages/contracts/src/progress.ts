import { Type, type Static } from 'typebox';

/** How far an output slot's render has come, in percent: 0..100 in the worker, the database, the API, the cache and the UI. */
export const Progress = Type.Integer({ minimum: 0, maximum: 100 });
export type Progress = Static<typeof Progress>;
