// s3rver ships no types; the reference lets packages that import this file see them.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./s3rver.d.ts" />
import path from 'node:path';
import S3rver from 's3rver';

export interface LocalS3 {
  endPoint: string;
  port: number;
  useSSL: false;
  accessKey: string;
  secretKey: string;
  region: string;
  stop(): Promise<void>;
}

/**
 * A local S3-compatible server on loopback (s3rver), for tests and the soak: it speaks the S3
 * protocol the MinIO client uses, but does not verify SigV4 signatures, so it proves request
 * flow, not auth.
 */
export async function startLocalS3(options: { dataDir: string; port: number }): Promise<LocalS3> {
  const server = new S3rver({
    address: '127.0.0.1',
    port: options.port,
    directory: path.join(options.dataDir, 's3'),
    silent: true,
  });
  await server.run();
  return {
    endPoint: '127.0.0.1',
    port: options.port,
    useSSL: false,
    accessKey: 'S3RVER',
    secretKey: 'S3RVER',
    region: 'us-east-1',
    stop: () => server.close(),
  };
}
