import { describeStartError, runStack } from './run-stack.js';

runStack().catch((error: unknown) => {
  console.error(describeStartError(error));
  process.exit(1);
});
