import { randomBytes } from 'node:crypto';
import { freePort } from '@prodshot/embedded';
import { corpusFile } from '@prodshot/fixtures';
import { repoRoot, runMain } from '../bench/bench-stack.js';
import { round } from '../bench/stats.js';
import { type ComposeStack, composeStack } from './compose.js';
import { offlineNpmCache } from './offline-cache.js';
import { burst, completedJobsByReplica, killWorkerMidJob } from './replicas.js';
import { downloadShot, finished, liveSeller, startGeneration, uploadPhoto } from './seller-walk.js';

const PHOTO = corpusFile('products', 'saleor-blue-plimsolls-1.png');
const REPLICAS = 3;
const BURST_JOBS = 12;
const say = (line: string) => console.log(`[containers] ${line}`);

/**
 * `npm run test:containers`, after scripts/test-containers.mjs made sure Docker and the base images
 * are there: the images built from infra/docker/Dockerfile, the stack of docker-compose.yml as an
 * operator runs it (keyless trial modes, storage keys of its own), a seller's walk through nginx,
 * worker replicas, a worker killed mid-job, and nothing left running.
 */
async function main(): Promise<void> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const stack = composeStack(repoRoot, 'prodshot-containers', {
    PUBLISH_ADDRESS: '127.0.0.1',
    WEB_PORT: String(port),
    PUBLIC_URL: baseUrl,
    ALLOW_EMBEDDED_AUTH: 'true',
    ALLOW_LOCAL_PAYMENTS: 'true',
    MINIO_ROOT_USER: `root-${randomBytes(4).toString('hex')}`,
    MINIO_ROOT_PASSWORD: randomBytes(18).toString('base64url'),
    MINIO_APP_ACCESS_KEY: `prodshot-app-${randomBytes(4).toString('hex')}`,
    MINIO_APP_SECRET_KEY: randomBytes(18).toString('base64url'),
  });
  try {
    await buildImages(stack);
    say(`starting the stack on ${baseUrl}…`);
    await stack.show(['up', '--detach']);
    await stack.waitHealthy(300_000);

    const seller = await liveSeller(baseUrl, 'Container Seller');
    const imageId = await uploadPhoto(baseUrl, seller, PHOTO);
    const smart = await finished(
      baseUrl,
      seller,
      await startGeneration(baseUrl, seller, '/images/smart-generate-product-shots', { imageId, styleCount: 2 }),
      300_000,
    );
    if (smart.status !== 'complete') throw new Error(`smart generation ended ${smart.status}: ${smart.error}`);
    const shotUrl = smart.styles.find((style) => style.url)?.url;
    if (!shotUrl?.startsWith(`${baseUrl}/prodshot/`))
      throw new Error(`the shot's link ${shotUrl} is not served through nginx`);
    const shot = await downloadShot(shotUrl);
    say(
      `seller walk: signed up, uploaded, smart generation Complete! (${smart.styles.length} styles), downloaded a ${shot.length}-byte shot through its presigned link`,
    );

    const oneReplica = await burst(baseUrl, seller, imageId, BURST_JOBS);
    say(`1 worker: ${round(oneReplica, 2)} jobs/s`);
    await stack.show(['up', '--detach', '--no-recreate', '--scale', `worker=${REPLICAS}`]);
    await stack.waitHealthy(300_000);
    const before = await completedJobsByReplica(stack);
    const scaled = await burst(baseUrl, seller, imageId, BURST_JOBS);
    const after = await completedJobsByReplica(stack);
    const took = [...after].map(([container, count]) => count - (before.get(container) ?? 0));
    if (took.length !== REPLICAS || took.some((count) => count === 0))
      throw new Error(`not every replica took jobs: ${took.join('/')}`);
    const ratio = round(scaled / oneReplica, 2);
    say(`${REPLICAS} workers: ${round(scaled, 2)} jobs/s (${ratio}× one), jobs per replica ${took.join('/')}`);

    const killed = await killWorkerMidJob(baseUrl, stack, seller, imageId);
    say(
      `killed worker ${killed.container} mid-job: generation ${killed.generationId} completed on another replica, ${killed.shotsMade} shots for ${killed.creditsBefore - killed.creditsAfter} credits`,
    );
    seller.socket.close();
    await stack.down();
    const left = await stack.leftImages();
    if (left.length > 0) throw new Error(`images left after the stack went down: ${left.join(', ')}`);
    console.log(
      `[containers] passed: ${REPLICAS} worker replicas each took jobs (${took.join('/')}), throughput ${ratio}× one replica, ` +
        `killed worker's generation completed with credits conserved, stack down with nothing left running and its images removed`,
    );
  } catch (error) {
    await stack.show(['logs', '--tail', '60']).catch(() => undefined);
    await stack.down().catch(() => undefined);
    throw error;
  }
}

async function buildImages(stack: ComposeStack): Promise<void> {
  const removeCache = offlineNpmCache(repoRoot);
  try {
    say('building the api, worker and web images from infra/docker/Dockerfile…');
    await stack.show(['build']);
  } finally {
    removeCache();
  }
}

runMain(main);
