import { Type, type Static } from 'typebox';

/** `GET /api/health` on the public port: whether the service can serve, and nothing about why not. */
export const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
});
export type HealthResponse = Static<typeof HealthResponse>;

export const DependencyState = Type.Union([
  Type.Object({ status: Type.Literal('ok'), latencyMs: Type.Number() }),
  Type.Object({ status: Type.Literal('error'), error: Type.String() }),
]);
export type DependencyState = Static<typeof DependencyState>;

/** `GET /health` on an operator listener (the API's OPS_PORT, the worker's WORKER_HEALTH_PORT): readiness with its reasons. */
export const ReadinessResponse = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  uptimeSeconds: Type.Number(),
  dependencies: Type.Record(Type.String(), DependencyState),
  /** Which implementation each part runs (auth, payments, image model, storage driver). */
  modes: Type.Optional(Type.Record(Type.String(), Type.String())),
  /** Why this process takes no work although its dependencies answer. */
  error: Type.Optional(Type.String()),
});
export type ReadinessResponse = Static<typeof ReadinessResponse>;
