import { corpusFile } from '@prodshot/fixtures';
import { runMain, startBenchStack } from './bench-stack.js';
import { priorityPhase } from './priority.js';
import { writePriorityReport } from './report.js';
import { newSeller } from './seller.js';

const PRODUCT = corpusFile('products', 'saleor-blue-plimsolls-1.png');

/** The bench's priority phase alone, on a fresh stack: minutes, where the whole bench takes long. */
async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const [starter, growth, pro] = await Promise.all([0, 1, 2].map((n) => newSeller(stack.baseUrl, stack.db, n, PRODUCT)));
    console.log('[bench] priority processing: Pro shots behind a backlog of Starter and Growth shots, 1 worker…');
    await writePriorityReport(await priorityPhase(stack, { starter: starter!, growth: growth!, pro: pro! }));
    for (const seller of [starter, growth, pro]) seller!.socket.disconnect();
  } finally {
    await stack.stop();
  }
}

runMain(main);
