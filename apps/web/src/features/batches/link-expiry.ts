/** Seconds since the epoch at which a signed archive link stops working. */
export function linkExpiry(url: string): number {
  return Number(new URL(url, 'http://link.invalid').searchParams.get('expires') ?? 0);
}
