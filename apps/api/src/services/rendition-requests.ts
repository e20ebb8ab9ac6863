import type { MakeRenditionsJob } from '@prodshot/contracts';
import { jobIds, QUEUE_ORDER, type JobProducer } from '@prodshot/queue';
import type { Log } from './log.js';

/**
 * Asks a worker for the renditions of images stored before renditions existed, the first time a
 * list shows them; until they are made, their full URL stands in. Asking again adds nothing (one
 * job per row), and a queue out of reach only delays them: the list still answers.
 */
export async function requestRenditions(producer: JobProducer, log: Log, images: MakeRenditionsJob[]): Promise<void> {
  await Promise.all(
    images.map((image) =>
      producer
        .enqueue('make-renditions', image, { jobId: jobIds.renditions(image.owner.id), ...QUEUE_ORDER.backfill })
        .catch((error: unknown) =>
          log.warn({ err: error, key: image.key }, 'renditions not requested; the next list asks again'),
        ),
    ),
  );
}
