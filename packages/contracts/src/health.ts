/** `GET /api/health`: each dependency's state, and which engine and modes are active. */
export type DependencyState = { status: 'ok'; latencyMs: number } | { status: 'error'; error: string };

export interface HealthResponse {
  status: 'ok' | 'degraded';
  uptimeSeconds: number;
  dependencies: {
    postgres: DependencyState;
    redis: DependencyState;
    storage: DependencyState & { driver: 'fs' | 'minio' };
  };
  modes: {
    auth: 'clerk' | 'embedded';
    payments: 'stripe' | 'local';
    imageModel: string;
  };
}
