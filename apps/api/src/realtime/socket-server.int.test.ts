import { afterEach, describe, expect, inject, it } from 'vitest';
import { mintSessionToken, testClerkId } from '@prodshot/testing';
import { connectSocket, type ClientSocket } from '../seller-client.test-support.js';
import { buildTestApp, type TestApp } from '../test-app.test-support.js';

const stack = inject('stack');
let testApp: TestApp | undefined;
let socket: ClientSocket | undefined;

afterEach(async () => {
  socket?.disconnect();
  await testApp?.close();
  testApp = undefined;
  socket = undefined;
});

describe('a socket and its token', () => {
  it('is disconnected, and so out of its room, when the token it connected with expires', async () => {
    testApp = await buildTestApp(stack, { listen: true });
    const token = await mintSessionToken({ clerkId: testClerkId(), expiresInSeconds: 2 });
    ({ socket } = await connectSocket(testApp, token));
    expect(socket.connected).toBe(true);
    const reason = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('still connected 5 s after the token expired')), 7_000);
      socket!.once('disconnect', (why) => {
        clearTimeout(timer);
        resolve(why);
      });
    });
    expect(reason).toBe('io server disconnect');
  });

  it('stays connected while its token is valid', async () => {
    testApp = await buildTestApp(stack, { listen: true });
    ({ socket } = await connectSocket(
      testApp,
      await mintSessionToken({ clerkId: testClerkId(), expiresInSeconds: 300 }),
    ));
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(socket.connected).toBe(true);
  });
});
