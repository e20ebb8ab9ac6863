import { expect } from 'vitest';
import sharp from 'sharp';
import type { GenerationDto } from '@prodshot/contracts';
import {
  startStallingProxy,
  startWorkerProcess,
  uniqueName,
  type StackInfo,
  type StallingProxy,
  type WorkerProcess,
} from '@prodshot/testing';
import { openAIFake, type Answer, type OpenAICall } from '@prodshot/testing/fakes';
import { eventually, signIn, type Session } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

/** A plain product photo the local engine cuts out reliably: a box on a light backdrop. */
export async function productPhoto(colour = '#2a6'): Promise<Buffer> {
  const product = await sharp({ create: { width: 220, height: 360, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 640, height: 640, channels: 3, background: '#f0f0f0' } })
    .composite([{ input: product, left: 210, top: 140 }])
    .jpeg()
    .toBuffer();
}

/**
 * A cutout the seller made already: a 180×360 product on a transparent 600 px square. Its alpha is
 * the product, so no on-device cutout model runs and a test times the hosted model's call alone.
 */
export async function sellerCutout(colour: string): Promise<Buffer> {
  const product = await sharp({ create: { width: 180, height: 360, channels: 3, background: colour } })
    .png()
    .toBuffer();
  return sharp({ create: { width: 600, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite([{ input: product, left: 210, top: 120 }])
    .png()
    .toBuffer();
}

export async function startSmart(testApp: TestApp, session: Session, imageId: string, styleCount = 4): Promise<string> {
  const response = await testApp.app.inject({
    method: 'POST',
    url: '/api/images/smart-generate-product-shots',
    headers: session.auth,
    payload: { imageId, styleCount },
  });
  expect(response.statusCode, response.body).toBe(202);
  return response.json().data.generationId;
}

/** Polls Postgres (through the app's own repository, not the API, which may be answering 503). */
export async function settled(
  testApp: TestApp,
  generationId: string,
  timeoutMs: number,
): Promise<{ status: string; styles: string[] }> {
  return eventually(
    async () => {
      try {
        const generation = await testApp.deps.db
          .selectFrom('generations')
          .select('status')
          .where('id', '=', generationId)
          .executeTakeFirst();
        if (!generation || (generation.status !== 'complete' && generation.status !== 'failed')) return null;
        const styles = await testApp.deps.db
          .selectFrom('generation_styles')
          .select('status')
          .where('generation_id', '=', generationId)
          .orderBy('index')
          .execute();
        return { status: generation.status, styles: styles.map((s) => s.status) };
      } catch {
        return null;
      }
    },
    timeoutMs,
    `generation ${generationId} to settle`,
  );
}

/** A worker that dies while a test waits on it fails the test at once, with what it printed. */
export async function unlessWorkerDies<T>(worker: WorkerProcess, waiting: Promise<T>): Promise<T> {
  const died = worker.exited.then(({ code, signal }) => {
    throw new Error(`the worker exited (code ${code}, signal ${signal}) while the test waited:\n${worker.output()}`);
  });
  // Once the wait is over, the test's own teardown ends the worker: that is no failure.
  died.catch(() => {});
  return Promise.race([waiting, died]);
}

/** Exactly one reservation, one settlement per stored output, and no refund: charged once. */
export async function expectChargedOnce(testApp: TestApp, generationId: string, outputs: number): Promise<void> {
  const rows = await testApp.deps.db
    .selectFrom('credit_ledger')
    .select(['kind', 'idempotency_key'])
    .where('generation_id', '=', generationId)
    .execute();
  expect(rows.filter((r) => r.kind === 'reserve')).toHaveLength(1);
  expect(rows.filter((r) => r.kind === 'settle')).toHaveLength(outputs);
  expect(rows.filter((r) => r.kind === 'refund')).toHaveLength(0);
}

/**
 * A test app whose object store sits behind a proxy the test can stall (connections open, nothing
 * answers), in a bucket of its own; each store call gives up after `storageTimeoutMs`.
 */
export async function appBehindStallingStore(
  stack: StackInfo,
  { storageTimeoutMs, bucket }: { storageTimeoutMs: number; bucket: string },
): Promise<{ proxy: StallingProxy; testApp: TestApp }> {
  const proxy = await startStallingProxy({ host: stack.s3.endPoint, port: stack.s3.port });
  const testApp = await buildTestApp(stack, {
    env: {
      MINIO_ENDPOINT: '127.0.0.1',
      MINIO_PORT: String(proxy.port),
      MINIO_ACCESS_KEY: stack.s3.accessKey,
      MINIO_SECRET_KEY: stack.s3.secretKey,
      MINIO_REGION: stack.s3.region,
      MINIO_BUCKET: uniqueName(bucket).replaceAll('_', '-').toLowerCase(),
      STORAGE_TIMEOUT_MS: String(storageTimeoutMs),
    },
  });
  return { proxy, testApp };
}

/** The API and one worker on the OpenAI-shaped loopback model, and a Growth seller signed in to them. */
export interface HostedModelStack {
  testApp: TestApp;
  worker: WorkerProcess;
  model: Awaited<ReturnType<typeof openAIFake>>;
  session: Session;
  close(): Promise<void>;
}

/**
 * Starts a HostedModelStack whose model answers each call as `answer` says ('never' hangs it). `env`
 * goes to the API and the worker; `workerEnv` to the worker alone.
 */
export async function startOnHostedModel(
  stack: StackInfo,
  answer: (call: OpenAICall) => Answer | 'never',
  {
    env = {},
    workerEnv = {},
    seller,
  }: { env?: Record<string, string>; workerEnv?: Record<string, string>; seller: string },
): Promise<HostedModelStack> {
  const model = await openAIFake(answer);
  const testApp = await buildTestApp(stack, {
    env: { IMAGE_MODEL: 'openai', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: model.base, ...env },
  });
  const worker = await startWorkerProcess({ ...testApp.env, ...workerEnv });
  const session = await signIn(testApp, `${seller}-${Date.now()}@example.com`, 'growth');
  const close = async () => {
    await worker.stop('SIGKILL');
    await model.close();
    await testApp.close();
  };
  return { testApp, worker, model, session, close };
}

export type { GenerationDto };
