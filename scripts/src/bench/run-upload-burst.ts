import { runMain, startBenchStack } from './bench-stack.js';
import { writeUploadBurstReport } from './report.js';
import { LARGE_UPLOAD_BURST, UPLOAD_BURST, uploadBursts } from './upload-burst.js';

/** The bench's upload bursts alone, on a fresh stack with no workers: minutes, where the whole bench takes long. */
async function main(): Promise<void> {
  const stack = await startBenchStack();
  try {
    const signIn = await fetch(`${stack.baseUrl}/api/dev/sign-in`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: `burst-${Date.now()}@bench.example`, name: 'Burst' }),
    });
    const { token } = (await signIn.json()) as { token: string };
    console.log(`[bench] upload bursts: ${UPLOAD_BURST} uploads of a 40 Mpx PNG at once, then ${LARGE_UPLOAD_BURST} of a 10 MB file…`);
    await writeUploadBurstReport(await uploadBursts(stack, token));
  } finally {
    await stack.stop();
  }
}

runMain(main);
