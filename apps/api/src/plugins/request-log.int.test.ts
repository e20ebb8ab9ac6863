import { Writable } from 'node:stream';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;

afterEach(async () => {
  await testApp?.close();
  testApp = undefined;
});

/** The app's log lines, parsed, as it writes them. */
async function appWithLog(env: NodeJS.ProcessEnv = {}): Promise<{ app: TestApp; lines: Record<string, unknown>[] }> {
  const lines: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  testApp = await buildTestApp(stack, { logger: true, logStream, env: { LOG_LEVEL: 'info', ...env } });
  return { app: testApp, lines };
}

const loggedRequests = (lines: Record<string, unknown>[]) =>
  lines.flatMap((line) => (line.req ? [line.req as { url: string; remoteAddress: string }] : []));

describe('request log lines', () => {
  it('never carry a signed URL signature, which would be a working link to whoever reads the logs', async () => {
    const { app, lines } = await appWithLog();
    const secret = 'a1b2c3d4e5f6a7b8c9d0';
    await app.app.inject({ method: 'GET', url: `/api/files/uploads/u/x.png?expires=1893456000&signature=${secret}` });
    const logged = loggedRequests(lines);
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(lines)).not.toContain(secret);
    expect(logged[0]!.url).toBe('/api/files/uploads/u/x.png?expires=1893456000&signature=redacted');
  });

  it('take the client address from X-Forwarded-For only when the peer is a trusted proxy (TRUST_PROXY)', async () => {
    const forwarded = { 'x-forwarded-for': '203.0.113.9' };
    const { app, lines } = await appWithLog();
    await app.app.inject({ method: 'GET', url: '/api/health', headers: forwarded, remoteAddress: '127.0.0.1' });
    await app.app.inject({ method: 'GET', url: '/api/health', headers: forwarded, remoteAddress: '198.51.100.4' });
    expect(loggedRequests(lines).map((req) => req.remoteAddress)).toEqual(['203.0.113.9', '198.51.100.4']);
    await app.close();

    const untrusting = await appWithLog({ TRUST_PROXY: 'false' });
    await untrusting.app.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: forwarded,
      remoteAddress: '127.0.0.1',
    });
    expect(loggedRequests(untrusting.lines).map((req) => req.remoteAddress)).toEqual(['127.0.0.1']);
  });
});
