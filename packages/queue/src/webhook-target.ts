import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_URL_MESSAGES } from '@prodshot/contracts';

/** Why a webhook URL is refused; `message` is what the seller reads. */
export class WebhookUrlError extends Error {
  override readonly name = 'WebhookUrlError';
  constructor(readonly reason: keyof typeof WEBHOOK_URL_MESSAGES) {
    super(WEBHOOK_URL_MESSAGES[reason]);
  }
}

/** A URL checked, and the address it resolved to: the one a delivery connects to, whatever the name resolves to next. */
export interface WebhookTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface WebhookTargetPolicy {
  /** The deployment runs on loopback (npm start): http and loopback receivers are allowed. */
  loopbackReceivers: boolean;
  /** Name resolution; the system's by default. */
  resolve?: (host: string) => Promise<{ address: string; family: number }[]>;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Addresses no webhook may reach: this network, private networks, link-local (cloud metadata), CGNAT, multicast, reserved, and their IPv6 kin. */
const NOT_PUBLIC = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  // IPv4-mapped and NAT64 addresses reach IPv4 hosts: checked as the IPv4 address they hold (ipv4Inside).
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  NOT_PUBLIC.addSubnet(network, prefix, 'ipv6');
}

/** The IPv4 address an IPv4-mapped (::ffff:a.b.c.d) or NAT64 (64:ff9b::a.b.c.d) address stands for. */
function ipv4Inside(address: string): string | undefined {
  const match = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(address);
  if (!match) return undefined;
  if (match[1]) return match[1];
  const high = Number.parseInt(match[2]!, 16);
  const low = Number.parseInt(match[3]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether a delivery may connect to this address under the policy. */
export function isAllowedAddress(address: string, loopbackReceivers: boolean): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  const inner = family === 6 ? ipv4Inside(address.toLowerCase()) : undefined;
  if (inner) return isAllowedAddress(inner, loopbackReceivers);
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopbackReceivers && LOOPBACK.check(address, type)) return true;
  return !NOT_PUBLIC.check(address, type);
}

function parse(raw: string, loopbackReceivers: boolean): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookUrlError('invalid');
  }
  if (url.protocol !== 'https:' && !(loopbackReceivers && url.protocol === 'http:'))
    throw new WebhookUrlError(url.protocol === 'http:' ? 'https' : 'invalid');
  if (url.username || url.password) throw new WebhookUrlError('credentials');
  return url;
}

async function systemResolve(host: string): Promise<{ address: string; family: number }[]> {
  return lookup(host, { all: true, verbatim: true });
}

/**
 * Checks a webhook URL and resolves its host: every address the name resolves to must be allowed
 * (a name with one private address among public ones is refused), and the first is the one to
 * connect to. Run at registration and again before every delivery, whose connection is pinned to
 * the address checked here, so a name re-pointed at a private address in between reaches nothing.
 */
export async function resolveWebhookTarget(raw: string, policy: WebhookTargetPolicy): Promise<WebhookTarget> {
  const url = parse(raw, policy.loopbackReceivers);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(host);
    } catch {
      throw new WebhookUrlError('unresolved');
    }
  }
  if (addresses.length === 0) throw new WebhookUrlError('unresolved');
  if (!addresses.every((a) => isAllowedAddress(a.address, policy.loopbackReceivers)))
    throw new WebhookUrlError('private');
  const [first] = addresses;
  return { url, address: first!.address, family: first!.family === 6 ? 6 : 4 };
}
