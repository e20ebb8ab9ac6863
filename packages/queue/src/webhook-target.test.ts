import { describe, expect, it } from 'vitest';
import { isAllowedAddress, resolveWebhookTarget } from './webhook-target.js';

const publicOnly = { loopbackReceivers: false };
const onLoopback = { loopbackReceivers: true };

describe('webhook target addresses', () => {
  it('refuse loopback, private, link-local (metadata), CGNAT, multicast, unique-local and mapped ones; allow public ones', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.100.100.200',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:10.0.0.1',
      '::ffff:a9fe:a9fe',
      '64:ff9b::7f00:1',
    ]) {
      expect(isAllowedAddress(address, false), address).toBe(false);
    }
    for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8'])
      expect(isAllowedAddress(address, false), address).toBe(true);
  });

  it('allow loopback, and only loopback, when the deployment runs on loopback', () => {
    for (const address of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1'])
      expect(isAllowedAddress(address, true), address).toBe(true);
    for (const address of ['10.0.0.1', '169.254.169.254', 'fd00::1'])
      expect(isAllowedAddress(address, true), address).toBe(false);
  });
});

describe('resolveWebhookTarget', () => {
  const resolvingTo = (...addresses: string[]) => ({
    ...publicOnly,
    resolve: async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  });

  it('answers the URL with the address to connect to', async () => {
    const target = await resolveWebhookTarget('https://hooks.example.com/in', resolvingTo('93.184.215.14'));
    expect(target).toMatchObject({ address: '93.184.215.14', family: 4 });
    expect(target.url.hostname).toBe('hooks.example.com');
  });

  it('refuses http, credentials, a name with any private address and one that does not resolve, each with its reason', async () => {
    await expect(
      resolveWebhookTarget('http://hooks.example.com/in', resolvingTo('93.184.215.14')),
    ).rejects.toMatchObject({ reason: 'https' });
    await expect(resolveWebhookTarget('not a url', publicOnly)).rejects.toMatchObject({ reason: 'invalid' });
    await expect(resolveWebhookTarget('ftp://hooks.example.com/', publicOnly)).rejects.toMatchObject({
      reason: 'invalid',
    });
    await expect(
      resolveWebhookTarget('https://u:p@hooks.example.com/', resolvingTo('93.184.215.14')),
    ).rejects.toMatchObject({ reason: 'credentials' });
    await expect(
      resolveWebhookTarget('https://hooks.example.com/', resolvingTo('93.184.215.14', '10.0.0.5')),
    ).rejects.toMatchObject({ reason: 'private' });
    await expect(resolveWebhookTarget('https://[::1]/', publicOnly)).rejects.toMatchObject({ reason: 'private' });
    await expect(
      resolveWebhookTarget('https://nowhere.example/', {
        ...publicOnly,
        resolve: () => Promise.reject(new Error('ENOTFOUND')),
      }),
    ).rejects.toMatchObject({ reason: 'unresolved' });
  });

  it('takes http and loopback receivers on a loopback deployment', async () => {
    expect(await resolveWebhookTarget('http://127.0.0.1:4000/hook', onLoopback)).toMatchObject({
      address: '127.0.0.1',
    });
    expect(
      await resolveWebhookTarget('http://localhost:4000/hook', {
        ...onLoopback,
        resolve: async () => [{ address: '::1', family: 6 }],
      }),
    ).toMatchObject({ address: '::1', family: 6 });
  });
});
