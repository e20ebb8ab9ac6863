import { uniqueName, type StackInfo } from '@prodshot/testing';

/** The two stores an app can run on: the filesystem driver, and the S3 server of the test stack through the `minio` client. */
export function storeEnvs(stack: StackInfo): { driver: 'fs' | 'minio'; env: NodeJS.ProcessEnv }[] {
  return [
    { driver: 'fs', env: {} },
    {
      driver: 'minio',
      env: {
        MINIO_ENDPOINT: stack.s3.endPoint,
        MINIO_PORT: String(stack.s3.port),
        MINIO_ACCESS_KEY: stack.s3.accessKey,
        MINIO_SECRET_KEY: stack.s3.secretKey,
        MINIO_REGION: stack.s3.region,
        MINIO_BUCKET: uniqueName('files').replaceAll('_', '-').toLowerCase(),
        // Browsers reach the bucket at another origin than the app's: the case downloads must survive.
        MINIO_PUBLIC_URL: `http://${stack.s3.endPoint}:${stack.s3.port}`,
      },
    },
  ];
}
