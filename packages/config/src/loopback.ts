/**
 * Whether a host name or address is this machine's loopback: `localhost`, 127.0.0.0/8, `::1`, and
 * 127.0.0.0/8 as an IPv4-mapped IPv6 address (how a dual-stack listener reports an IPv4 peer).
 */
export function isLoopback(host: string): boolean {
  const bare = host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/^::ffff:(?=\d)/, '');
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}
