// AWS Signature Version 4 for S3, both sides: the stand-in server checks every request with it
// (s3rver itself checks only that a V4 access key exists), and the stand-in mc signs its admin
// calls with it. Written from AWS's published description of SigV4; Node built-ins only.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

const ALGORITHM = 'AWS4-HMAC-SHA256';
/** How far a signed request's clock may be from ours, as S3 and MinIO allow. */
const MAX_SKEW_MS = 15 * 60 * 1000;

const sha256Hex = (data) => createHash('sha256').update(data).digest('hex');
const hmac = (key, data) => createHmac('sha256', key).update(data).digest();

/** URI-encodes as SigV4 wants: everything but A-Z a-z 0-9 - _ . ~ (and / when asked). */
export function awsEncode(text, keepSlash = false) {
  const encoded = encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return keepSlash ? encoded.replace(/%2F/g, '/') : encoded;
}

function safeDecode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** [name, value] pairs of a raw query string, decoded. */
function queryPairs(rawQuery) {
  if (!rawQuery) return [];
  return rawQuery
    .split('&')
    .filter(Boolean)
    .map((part) => {
      const at = part.indexOf('=');
      return at < 0 ? [safeDecode(part), ''] : [safeDecode(part.slice(0, at)), safeDecode(part.slice(at + 1))];
    });
}

function canonicalQuery(pairs) {
  return pairs
    .map(([name, value]) => [awsEncode(name), awsEncode(value)])
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

function canonicalHeaderValue(value) {
  return (Array.isArray(value) ? value.join(',') : String(value ?? '')).trim().replace(/\s+/g, ' ');
}

function signingKey(secret, date, region, service) {
  return hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
}

function stringToSign({ method, path, pairs, headers, signedHeaders, payloadHash, amzDate, scope }) {
  // The path as the client encoded it would be ambiguous (%2F, +): decode, then encode the SigV4 way.
  const canonicalPath = awsEncode(safeDecode(path), true) || '/';
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${canonicalHeaderValue(headers[name])}\n`).join('');
  const canonicalRequest = [
    method,
    canonicalPath,
    canonicalQuery(pairs),
    canonicalHeaders,
    signedHeaders.join(';'),
    payloadHash,
  ].join('\n');
  return [ALGORITHM, amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
}

/** 20260102T030405Z → milliseconds, or NaN. */
function parseAmzDate(text) {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(text ?? '');
  return m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : Number.NaN;
}

/**
 * Checks a request's SigV4 signature (Authorization header or presigned query) against
 * `secretFor(accessKey)`. Returns { ok: true, accessKey } or { ok: false, code, message } with an
 * S3 error code. Anonymous requests come back as { ok: false, code: 'AccessDenied' }.
 * The payload hash is taken as the client declares it (x-amz-content-sha256): the body itself is
 * not hashed and compared, which S3 and MinIO do.
 */
export function verifyRequest({ method, url, headers }, secretFor, now = Date.now()) {
  const queryAt = url.indexOf('?');
  const path = queryAt < 0 ? url : url.slice(0, queryAt);
  const pairs = queryPairs(queryAt < 0 ? '' : url.slice(queryAt + 1));
  const query = Object.fromEntries(pairs);
  const authorization = headers.authorization;

  let credential, signedHeaders, signature, amzDate, payloadHash, signedPairs;
  if (authorization) {
    if (!authorization.startsWith(`${ALGORITHM} `)) {
      return {
        ok: false,
        code: 'AccessDenied',
        message: 'Only AWS Signature Version 4 (AWS4-HMAC-SHA256) is accepted by this stand-in.',
      };
    }
    const fields = Object.fromEntries(
      authorization
        .slice(ALGORITHM.length + 1)
        .split(',')
        .map((field) => field.trim().split('=')),
    );
    credential = fields.Credential;
    signedHeaders = fields.SignedHeaders;
    signature = fields.Signature;
    amzDate = headers['x-amz-date'] ?? '';
    payloadHash = headers['x-amz-content-sha256'] ?? sha256Hex('');
    signedPairs = pairs;
    const skew = Math.abs(now - parseAmzDate(amzDate));
    if (!(skew <= MAX_SKEW_MS))
      return {
        ok: false,
        code: 'RequestTimeTooSkewed',
        message: 'The difference between the request time and the server time is too large.',
      };
  } else if (query['X-Amz-Algorithm']) {
    if (query['X-Amz-Algorithm'] !== ALGORITHM)
      return { ok: false, code: 'AccessDenied', message: `Unsupported X-Amz-Algorithm ${query['X-Amz-Algorithm']}` };
    credential = query['X-Amz-Credential'];
    signedHeaders = query['X-Amz-SignedHeaders'];
    signature = query['X-Amz-Signature'];
    amzDate = query['X-Amz-Date'];
    payloadHash = 'UNSIGNED-PAYLOAD';
    signedPairs = pairs.filter(([name]) => name !== 'X-Amz-Signature');
    const expires = Number(query['X-Amz-Expires']);
    const signedAt = parseAmzDate(amzDate);
    if (!Number.isFinite(signedAt) || !Number.isFinite(expires))
      return {
        ok: false,
        code: 'AuthorizationQueryParametersError',
        message: 'X-Amz-Date or X-Amz-Expires is missing or malformed.',
      };
    if (now > signedAt + expires * 1000) return { ok: false, code: 'AccessDenied', message: 'Request has expired' };
  } else {
    return {
      ok: false,
      code: 'AccessDenied',
      message: 'Access Denied. (Anonymous requests are refused: this stand-in has no bucket policies.)',
    };
  }

  const [accessKey, date, region, service, terminator] = (credential ?? '').split('/');
  if (!accessKey || !date || !region || !service || terminator !== 'aws4_request' || !signedHeaders || !signature) {
    return { ok: false, code: 'AuthorizationHeaderMalformed', message: 'The authorization header is malformed.' };
  }
  const secret = secretFor(accessKey);
  if (secret === undefined)
    return {
      ok: false,
      code: 'InvalidAccessKeyId',
      message: 'The Access Key Id you provided does not exist in our records.',
    };

  const expected = hmac(
    signingKey(secret, date, region, service),
    stringToSign({
      method,
      path,
      pairs: signedPairs,
      headers,
      signedHeaders: signedHeaders.split(';'),
      payloadHash,
      amzDate,
      scope: `${date}/${region}/${service}/aws4_request`,
    }),
  );
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      code: 'SignatureDoesNotMatch',
      message:
        'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    };
  }
  return { ok: true, accessKey };
}

/**
 * Signs a request with an Authorization header; returns the headers to send (host, x-amz-date,
 * x-amz-content-sha256 and authorization added to `headers`). `url` is a URL object.
 */
export function signRequest(
  { method, url, headers = {}, body = '' },
  { accessKey, secretKey, region = 'us-east-1', service = 's3' },
  now = new Date(),
) {
  const amzDate = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const date = amzDate.slice(0, 8);
  const all = {
    ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
    host: url.host,
    'x-amz-date': amzDate,
    'x-amz-content-sha256': sha256Hex(body),
  };
  const signedHeaders = Object.keys(all).sort();
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = stringToSign({
    method,
    path: url.pathname,
    pairs: queryPairs(url.search.slice(1)),
    headers: all,
    signedHeaders,
    payloadHash: all['x-amz-content-sha256'],
    amzDate,
    scope,
  });
  const signature = hmac(signingKey(secretKey, date, region, service), toSign).toString('hex');
  return {
    ...all,
    authorization: `${ALGORITHM} Credential=${accessKey}/${scope}, SignedHeaders=${signedHeaders.join(';')}, Signature=${signature}`,
  };
}
