import type {} from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's shared stack on default settings (support/shared-stack.ts): plain data, so it crosses vitest's worker boundary. */
    e2eSharedStack: { baseUrl: string; opsUrl: string };
  }
}
