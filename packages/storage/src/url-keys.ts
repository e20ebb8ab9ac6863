import { assertSafeKey } from './keys.js';
import { FILES_ROUTE_PREFIX } from './signed-url.js';

/** Where an S3 bucket's presigned links point: the host browsers reach it at. */
export interface S3LinkTarget {
  endPoint: string;
  port?: number | undefined;
  useSSL: boolean;
  bucket: string;
  /** AWS links name the regional host (`s3.{region}.amazonaws.com`) whatever endpoint was configured. */
  region?: string | undefined;
}

/**
 * The key a link names, read back from its path alone. The signature and expiry are not checked:
 * the caller resolves the key to a row it owns, which proves more than a signature would, and a
 * tab left open past its link's expiry still names the same file.
 */
function keyFromPath(encoded: string): string | null {
  try {
    const segments = encoded.split('/').map(decodeURIComponent);
    // A segment is one name: an encoded slash inside it would make another key than the link shows.
    return segments.some((s) => s.includes('/')) ? null : assertSafeKey(segments.join('/'));
  } catch {
    return null;
  }
}

function parse(url: string, base?: string): URL | null {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The key of a filesystem-store link (`{base}/api/files/{key}?expires=…&signature=…`), absolute or
 * relative to `base` (the origin the links were handed out at); null for any other URL.
 */
export function keyFromFilesUrl(url: string, base: string): string | null {
  const origin = parse(base);
  const parsed = origin && parse(url, origin.href);
  if (!origin || !parsed || parsed.origin !== origin.origin) return null;
  const prefix = origin.pathname.replace(/\/$/, '') + FILES_ROUTE_PREFIX;
  return parsed.pathname.startsWith(prefix) ? keyFromPath(parsed.pathname.slice(prefix.length)) : null;
}

function defaultPort(https: boolean): number {
  return https ? 443 : 80;
}

/**
 * The key of an S3/MinIO presigned link: path-style (`{host}/{bucket}/{key}`, MinIO and most
 * S3-compatible servers) or virtual-hosted (`{bucket}.{host}/{key}`, AWS); null for any other URL.
 */
export function keyFromS3Url(url: string, target: S3LinkTarget): string | null {
  const parsed = /^https?:\/\//i.test(url) ? parse(url) : null;
  if (!parsed || parsed.protocol !== (target.useSSL ? 'https:' : 'http:')) return null;
  const port = parsed.port ? Number(parsed.port) : defaultPort(target.useSSL);
  if (port !== (target.port ?? defaultPort(target.useSSL))) return null;
  const hosts = linkHosts(target);
  if (hosts.includes(parsed.hostname)) {
    const bucketPrefix = `/${target.bucket}/`;
    return parsed.pathname.startsWith(bucketPrefix) ? keyFromPath(parsed.pathname.slice(bucketPrefix.length)) : null;
  }
  if (hosts.some((host) => parsed.hostname === `${target.bucket}.${host}`))
    return keyFromPath(parsed.pathname.slice(1));
  return null;
}

function linkHosts(target: S3LinkTarget): string[] {
  const host = target.endPoint.toLowerCase();
  const aws = /(^|\.)amazonaws\.com$/.test(host) && target.region ? [`s3.${target.region}.amazonaws.com`] : [];
  return [host, ...aws];
}
