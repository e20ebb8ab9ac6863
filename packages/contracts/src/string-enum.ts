import { Type } from 'typebox';

/**
 * A string schema limited to `values`, typed as their union (a union of literals built from a mapped
 * array would widen to nothing).
 */
export function StringEnum<T extends string>(values: readonly T[]) {
  return Type.Unsafe<T>(Type.String({ enum: [...values] }));
}
