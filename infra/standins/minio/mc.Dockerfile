# Stand-in for minio/mc:latest, built offline by `npm run containers:standins`. NOT MinIO's mc: a
# Node script (mc.mjs) whose S3 calls go through the real minio npm client and whose admin calls
# (user add, policy create/attach) speak only the MinIO stand-in's own admin API.
FROM node:24-bookworm-slim
COPY app/ /opt/minio-standin/
COPY mc.mjs sigv4.mjs /opt/minio-standin/
RUN printf '#!/bin/sh\nexec node /opt/minio-standin/mc.mjs "$@"\n' > /usr/bin/mc && chmod +x /usr/bin/mc
ENTRYPOINT ["mc"]
