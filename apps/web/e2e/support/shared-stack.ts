import type { TestProject } from 'vitest/node';
import { startOwnStack, type OwnStack } from './stack.js';
import './shared-stack-info.js';

let stack: OwnStack | undefined;

/**
 * Vitest global setup of the e2e project: one stack on default settings for every file that needs
 * no settings of its own, so each of them does not pay for a Postgres initdb, migrations and a
 * worker's model load. Users, not stacks, keep files apart: each file signs up its own sellers.
 */
export async function setup(project: TestProject): Promise<void> {
  if (process.env.PRODSHOT_E2E_BASE_URL) return;
  stack = await startOwnStack();
  project.provide('e2eSharedStack', { baseUrl: stack.baseUrl, opsUrl: stack.opsUrl });
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}
