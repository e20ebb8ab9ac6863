import type { ShotFiles } from '@prodshot/contracts';

/** A 4096 px shot's files as the API lists them: Download's JPEG, and the original PNG (18 MB as phones count it). */
export const SHOT_FILES: ShotFiles = {
  download: { contentType: 'image/jpeg', bytes: 1_960_000 },
  original: { contentType: 'image/png', bytes: 19_005_379 },
};
