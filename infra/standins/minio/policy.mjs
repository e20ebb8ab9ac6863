// A subset of S3/MinIO IAM policy evaluation for the MinIO stand-in, so a bucket-scoped user made
// with `mc admin policy create` + `attach` is confined the way MinIO confines it: an explicit Deny
// wins, otherwise some Allow must match the request's action and resource, otherwise it is refused.
// Statements with a Condition are not evaluated: an Allow with one never matches (refusing is the
// safe side) and a Deny with one always does. Principal/NotAction/NotResource are not supported.

/** The S3 action and resource ARN of a request, as MinIO names them for its policy check. */
export function requestAction(method, pathname, query, headers) {
  const [, bucket = '', ...rest] = pathname.split('/');
  const key = decodeURIComponentSafe(rest.join('/'));
  const has = (name) => Object.prototype.hasOwnProperty.call(query, name);
  if (!bucket) return { action: 's3:ListAllMyBuckets', resource: 'arn:aws:s3:::*' };
  const bucketArn = `arn:aws:s3:::${bucket}`;
  if (!key) {
    const sub = [
      'policy',
      'lifecycle',
      'versioning',
      'cors',
      'tagging',
      'encryption',
      'notification',
      'object-lock',
      'replication',
    ].find(has);
    const verb = { GET: 'Get', PUT: 'Put', DELETE: 'Delete' }[method];
    if (has('location')) return { action: 's3:GetBucketLocation', resource: bucketArn };
    if (sub && verb) {
      const names = {
        policy: 'BucketPolicy',
        lifecycle: 'LifecycleConfiguration',
        versioning: 'BucketVersioning',
        cors: 'BucketCORS',
        tagging: 'BucketTagging',
        encryption: 'EncryptionConfiguration',
        notification: 'BucketNotification',
        'object-lock': 'BucketObjectLockConfiguration',
        replication: 'ReplicationConfiguration',
      };
      return { action: `s3:${verb}${names[sub]}`, resource: bucketArn };
    }
    if (method === 'POST' && has('delete'))
      return { action: 's3:DeleteObject', resource: `${bucketArn}/*`, multiDelete: true };
    if (method === 'PUT') return { action: 's3:CreateBucket', resource: bucketArn };
    if (method === 'DELETE') return { action: 's3:DeleteBucket', resource: bucketArn };
    if (has('uploads')) return { action: 's3:ListBucketMultipartUploads', resource: bucketArn };
    // GET (list) and HEAD (HeadBucket): MinIO checks s3:ListBucket for both.
    return { action: 's3:ListBucket', resource: bucketArn };
  }
  const objectArn = `${bucketArn}/${key}`;
  if (method === 'GET' || method === 'HEAD') {
    if (has('uploadId')) return { action: 's3:ListMultipartUploadParts', resource: objectArn };
    if (has('tagging')) return { action: 's3:GetObjectTagging', resource: objectArn };
    return { action: 's3:GetObject', resource: objectArn };
  }
  if (method === 'DELETE')
    return { action: has('uploadId') ? 's3:AbortMultipartUpload' : 's3:DeleteObject', resource: objectArn };
  if (method === 'PUT' && has('tagging')) return { action: 's3:PutObjectTagging', resource: objectArn };
  const copySource = headers['x-amz-copy-source'];
  // PUT and POST (multipart create/complete) write the object; a copy also reads its source.
  return {
    action: 's3:PutObject',
    resource: objectArn,
    ...(copySource ? { alsoRead: copySourceArn(copySource) } : {}),
  };
}

function copySourceArn(source) {
  const path = decodeURIComponentSafe(source.split('?')[0]).replace(/^\//, '');
  return `arn:aws:s3:::${path}`;
}

function decodeURIComponentSafe(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** IAM's wildcards: * any run of characters, ? one character; actions compare case-insensitively. */
function globMatch(pattern, value, ignoreCase = false) {
  const source = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${source}$`, ignoreCase ? 'i' : '').test(value);
}

const list = (value) => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

function statementMatches(statement, action, resource) {
  return (
    list(statement.Action).some((a) => globMatch(a, action, true)) &&
    list(statement.Resource).some((r) => globMatch(r, resource))
  );
}

/**
 * 'allow' or 'deny' for one action on one resource under the given policy documents. A user with
 * no policy may do nothing, as in MinIO.
 */
export function evaluate(policies, action, resource) {
  const statements = policies.flatMap((policy) => list(policy?.Statement));
  const denied = statements.some((s) => s.Effect === 'Deny' && statementMatches(s, action, resource));
  if (denied) return 'deny';
  const allowed = statements.some((s) => s.Effect === 'Allow' && !s.Condition && statementMatches(s, action, resource));
  return allowed ? 'allow' : 'deny';
}

/** Whether `policies` let a request through: its action on its resource, and a copy's read of its source. */
export function permits(policies, request) {
  if (evaluate(policies, request.action, request.resource) !== 'allow') return false;
  return !request.alsoRead || evaluate(policies, 's3:GetObject', request.alsoRead) === 'allow';
}
