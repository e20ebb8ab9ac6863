import type { Repositories } from '@prodshot/db';
import type { ArchiveLinkSecret } from '@prodshot/storage';
import type { AppDeps } from '../deps.js';
import { AccountService } from './accounts/accounts.js';
import { ApiKeyService } from './accounts/api-keys.js';
import { WebhookEndpointService } from './accounts/webhook-endpoints.js';
import { BatchService } from './batches/batch-service.js';
import { BillingService } from './billing/billing-service.js';
import { CreditTransactions } from './billing/credit-transactions.js';
import { FreeAllowance } from './billing/free-allowance.js';
import { FreeAllowanceCounter } from './billing/free-allowance-counter.js';
import { createPaymentsProvider } from './billing/payments-provider.js';
import { PaymentsService } from './billing/payments-service.js';
import { StripeWebhooks } from './billing/stripe-webhooks/stripe-webhooks.js';
import { ExportService } from './exports/export-service.js';
import { GenerationLookups } from './generations/generation-lookups.js';
import { GenerationReads } from './generations/generation-reads.js';
import { GenerationWaits } from './generations/generation-waits.js';
import { IterateService } from './generations/iterate-service.js';
import { PaidWork } from './generations/paid-work.js';
import { ShotsService } from './generations/shots-service.js';
import { ImageService } from './uploads/image-service.js';
import { UploadFallbackService } from './uploads/upload-fallback.js';

/** What the services are built from: the app's parts plus every repository, built once. */
export type ServiceDeps = AppDeps & { repos: Repositories; archiveLinkSecret: ArchiveLinkSecret };

/** One instance of each service for the whole app; routes reach them as `app.services`. */
export interface Services {
  shots: ShotsService;
  iterate: IterateService;
  /** The read side of generations: where one stands, a shot's file, recent outputs. */
  generations: GenerationReads;
  /** The synchronous calls' waits on their jobs. */
  waits: GenerationWaits;
  /** The caller's own uploads, generations and plan, 404 for anyone else's. */
  lookups: GenerationLookups;
  batches: BatchService;
  exports: ExportService;
  accounts: AccountService;
  apiKeys: ApiKeyService;
  billing: BillingService;
  payments: PaymentsService;
  /** With the Stripe provider only: the local provider has nobody to send it events. */
  stripeWebhooks: StripeWebhooks | undefined;
  uploadFallback: UploadFallbackService;
  images: ImageService;
  webhookEndpoints: WebhookEndpointService;
}

export function createServices(deps: ServiceDeps): Services {
  const allowance = new FreeAllowance({
    credits: deps.repos.credits,
    counter: new FreeAllowanceCounter(deps.redis, deps.config.redis.queuePrefix),
    limits: deps.config.freeAllowance,
  });
  const lookups = new GenerationLookups(deps);
  const paidWork = new PaidWork(deps);
  const waits = new GenerationWaits({
    producer: deps.producer,
    store: deps.store,
    generations: deps.repos.generations,
  });
  const transactions = new CreditTransactions(deps);
  const billing = new BillingService(deps.repos, transactions);
  const provider = createPaymentsProvider(deps.config, billing, transactions, deps.redis);
  return {
    shots: new ShotsService({ paidWork, lookups, producer: deps.producer, allowance }),
    iterate: new IterateService({
      paidWork,
      lookups,
      images: deps.repos.images,
      generations: deps.repos.generations,
    }),
    generations: new GenerationReads({ repos: deps.repos, store: deps.store, producer: deps.producer, lookups }),
    waits,
    lookups,
    batches: new BatchService({
      batches: deps.repos.batches,
      store: deps.store,
      archiveLinkSecret: deps.archiveLinkSecret,
      paidWork,
      lookups,
    }),
    exports: new ExportService(deps),
    accounts: new AccountService(deps.repos.users),
    apiKeys: new ApiKeyService(
      deps.repos.apiKeys,
      deps.repos.users,
      deps.config.auth.mode === 'clerk' ? 'live' : 'test',
    ),
    billing,
    payments: new PaymentsService(deps.repos, provider),
    stripeWebhooks: provider.kind === 'stripe' ? new StripeWebhooks(transactions, provider) : undefined,
    uploadFallback: new UploadFallbackService(deps.repos, deps.store),
    images: new ImageService(
      deps,
      { effectivePlan: (userId) => lookups.effectivePlan(userId), waitForOutline: (jobId) => waits.outline(jobId) },
      allowance,
    ),
    webhookEndpoints: new WebhookEndpointService(deps.repos.webhooks, deps.producer, {
      loopbackReceivers: deps.config.webhooks.loopbackReceivers,
    }),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}
