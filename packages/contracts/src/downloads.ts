import { Type, type Static } from 'typebox';

/** A file of a shot that can be saved, by its type and size (null for outputs stored before sizes were recorded). */
export const ShotFile = Type.Object({
  contentType: Type.Union([Type.Literal('image/jpeg'), Type.Literal('image/png'), Type.Literal('image/webp')]),
  bytes: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
});
export type ShotFile = Static<typeof ShotFile>;

/**
 * What Download saves (a full-size JPEG under 4 MB, a WebP for a cutout), and the original PNG as
 * the second choice; `original` is null when the download is the original (a JPEG output, or one
 * stored before download copies).
 */
export const ShotFiles = Type.Object({ download: ShotFile, original: Type.Union([ShotFile, Type.Null()]) });
export type ShotFiles = Static<typeof ShotFiles>;

/** Which file a download asks for: absent, the download copy; 'original', the file as it was made. */
export const DownloadQuery = Type.Object(
  { file: Type.Optional(Type.Literal('original')) },
  { additionalProperties: false },
);
export type DownloadQuery = Static<typeof DownloadQuery>;

/**
 * A signed, expiring link's query (a stored file's, a batch zip's): read as it came, so a malformed
 * link is refused by its signature check (403), not by validation.
 */
export const SignedLinkQuery = Type.Object({
  expires: Type.Optional(Type.String()),
  signature: Type.Optional(Type.String()),
});
export type SignedLinkQuery = Static<typeof SignedLinkQuery>;

/** `GET /api/batches/:id/archive`: the signed link's query, and which files (not whose: the signature need not cover it). */
export const ArchiveQuery = Type.Object({ ...SignedLinkQuery.properties, file: DownloadQuery.properties.file });
export type ArchiveQuery = Static<typeof ArchiveQuery>;
