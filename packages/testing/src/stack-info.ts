import type {} from 'vitest';

/** What the integration stack hands to test files: plain data, so it crosses vitest's worker boundary. */
export interface S3Endpoint {
  /**
   * `minio` (a real MinIO container), `minio-standin` (the offline stand-in image: s3rver behind a
   * SigV4 check, policies not enforced; infra/standins/minio) or `s3rver` (a local S3-compatible
   * server that does not check SigV4 signatures).
   */
  kind: 'minio' | 'minio-standin' | 's3rver';
  endPoint: string;
  port: number;
  useSSL: boolean;
  accessKey: string;
  secretKey: string;
  region: string;
}

export interface StackInfo {
  /** TEST_STACK: `containers` (testcontainers) or `embedded` (local processes, the default). */
  mode: 'containers' | 'embedded';
  /** The `postgres` maintenance database, for creating per-test databases. */
  postgresAdminUrl: string;
  /** A migrated database every test database is copied from. */
  templateDatabase: string;
  redisUrl: string;
  s3: S3Endpoint;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: StackInfo;
  }
}
