/** `GET /api/health` on the public port: whether the service can serve, and nothing about why not. */
export interface HealthResponse {
  status: 'ok' | 'degraded';
}

export type DependencyState = { status: 'ok'; latencyMs: number } | { status: 'error'; error: string };

/** `GET /health` on an operator listener (the API's OPS_PORT, the worker's WORKER_HEALTH_PORT): readiness with its reasons. */
export interface ReadinessResponse {
  status: 'ok' | 'degraded';
  uptimeSeconds: number;
  dependencies: Record<string, DependencyState>;
  /** Which implementation each part runs (auth, payments, image model, storage driver). */
  modes?: Record<string, string>;
  /** Why this process takes no work although its dependencies answer. */
  error?: string;
}
