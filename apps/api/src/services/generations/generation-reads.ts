import path from 'node:path';
import {
  RECENT_GENERATIONS_DEFAULT,
  type DownloadQuery,
  type GenerationDto,
  type GenerationListResponse,
  type ListPageQuery,
} from '@prodshot/contracts';
import { generationDto, type Repositories } from '@prodshot/db';
import type { JobProducer } from '@prodshot/queue';
import type { ObjectStore } from '@prodshot/storage';
import { HttpError } from '../http-error.js';
import { decodeCursor, encodeCursor } from '../list-cursor.js';
import type { Log } from '../log.js';
import { requestRenditions } from '../rendition-requests.js';
import { recentGenerationDto } from './generation-dtos.js';
import type { GenerationLookups } from './generation-lookups.js';

export interface GenerationReadDeps {
  repos: Pick<Repositories, 'generations'>;
  store: ObjectStore;
  producer: JobProducer;
  lookups: GenerationLookups;
}

/** The read side of generations, from Postgres: where one stands, a shot's file, the seller's recent outputs. */
export class GenerationReads {
  constructor(private readonly deps: GenerationReadDeps) {}

  /** Where the caller's generation stands; outputs stored before renditions existed get theirs asked for. */
  async generation(userId: string, id: string, log: Log): Promise<GenerationDto> {
    const generation = await this.deps.lookups.ownedGeneration(userId, id);
    const without = generation.styles.filter(
      (style) => style.status === 'complete' && style.result_key && !style.renditions,
    );
    await requestRenditions(
      this.deps.producer,
      log,
      without.map((style) => ({ key: style.result_key!, owner: { kind: 'style', id: style.id } })),
    );
    return generationDto(this.deps.store, generation);
  }

  /** The caller's finished shot as Download saves it (its download copy, else itself) or its original. */
  async shotFile(
    userId: string,
    id: string,
    index: number,
    file: DownloadQuery['file'],
  ): Promise<{ key: string; fileName: string }> {
    const generation = await this.deps.lookups.ownedGeneration(userId, id);
    const style = generation.styles.find(
      (slot) => slot.index === index && slot.status === 'complete' && slot.result_key,
    );
    if (!style?.result_key) throw new HttpError(404, 'This shot is not ready', 'shot_not_found');
    const key = file === 'original' ? style.result_key : (style.download_key ?? style.result_key);
    return { key, fileName: `generation-${generation.id}-${style.index + 1}${path.extname(key) || '.png'}` };
  }

  /** A page of the caller's outputs, newest first, within their plan's history. */
  async recentOutputs(userId: string, query: ListPageQuery, log: Log): Promise<GenerationListResponse> {
    const page = await this.deps.repos.generations.outputsPage(userId, {
      limit: query.limit ?? RECENT_GENERATIONS_DEFAULT,
      after: decodeCursor(query.cursor),
    });
    const without = page.items.filter((output) => !output.renditions);
    await requestRenditions(
      this.deps.producer,
      log,
      without.map((output) => ({ key: output.resultKey, owner: { kind: 'style', id: output.id } })),
    );
    return {
      data: await Promise.all(page.items.map((output) => recentGenerationDto(this.deps.store, output))),
      nextCursor: encodeCursor(page.next),
      total: page.total,
    };
  }
}
