import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { COMPLIANCE_CHECK_IDS, type JobPayloads } from '@prodshot/contracts';
import { exportKey, generationOutputKey } from '@prodshot/storage';
import { buildWorkerDeps, finishedShot, jobOf, type TestWorkerDeps } from '../worker-deps.test-support.js';
import { complianceCheck } from './compliance-check.js';
import { exportShot } from './export-shot.js';

const stack = inject('stack');
let t: TestWorkerDeps;
beforeAll(async () => {
  t = await buildWorkerDeps(stack);
});
afterAll(() => t.close());

function check(payload: JobPayloads['compliance-check']) {
  return complianceCheck.run(jobOf('compliance-check', payload), t.deps);
}

describe('compliance-check', () => {
  it('measures the stored output against a preset, on every line the preset has', async () => {
    const { userId, generationId } = await finishedShot(t);
    const key = generationOutputKey(userId, generationId, 0, 'image/png');

    const report = await check({
      userId,
      generationId,
      outputIndex: 0,
      preset: 'amazon',
      key,
      subject: { kind: 'output' },
    });

    expect(report).toMatchObject({
      generationId,
      outputIndex: 0,
      preset: 'amazon',
      subject: { kind: 'output' },
      width: 1024,
      height: 1024,
    });
    // Amazon takes any aspect, so that line is left out.
    expect(report.lines.map((line) => line.id).sort()).toEqual(
      COMPLIANCE_CHECK_IDS.filter((id) => id !== 'aspect').sort(),
    );
    // 1024 px is under Amazon's longest side.
    expect(report.lines.find((line) => line.id === 'size')).toMatchObject({ status: 'fail' });
    expect(report.passed).toBe(false);
  });

  it('passes the Amazon export of the same output', async () => {
    const { userId, generationId } = await finishedShot(t);
    const key = exportKey(userId, generationId, 0, 'amazon', 'image/jpeg');
    await exportShot.run(
      jobOf('export-shot', { userId, generationId, outputIndex: 0, preset: 'amazon', format: 'jpeg', key }),
      t.deps,
    );

    const report = await check({
      userId,
      generationId,
      outputIndex: 0,
      preset: 'amazon',
      key,
      subject: { kind: 'export', preset: 'amazon', format: 'jpeg' },
    });

    expect(report).toMatchObject({ width: 2000, height: 2000 });
    expect(report.lines.filter((line) => line.status !== 'pass')).toEqual([]);
    expect(report.passed).toBe(true);
  });
});
