import type { TestProject } from 'vitest/node';
import { startStack, type RunningTestStack } from './start-stack.js';
import './stack-info.js';

let stack: RunningTestStack | undefined;

/** Vitest global setup of the integration project: one stack per run, isolated per test file. */
export async function setup(project: TestProject): Promise<void> {
  stack = await startStack();
  const { stop: _stop, ...info } = stack;
  project.provide('stack', info);
}

export async function teardown(): Promise<void> {
  await stack?.stop();
}
