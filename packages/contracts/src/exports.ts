// Over 250 lines: one feature's whole wire (presets, formats, the export call, the compliance report) shared by
// the API, the worker and the web app.
import { Type, type Static } from 'typebox';
import { StringEnum } from './string-enum.js';

/**
 * Marketplace exports and the compliance report: the presets, formats and shapes shared by the
 * API (POST /api/exports, GET /api/generations/:id/compliance), the worker that renders and
 * measures, and the web app's export dialog and checklist.
 */

export const EXPORT_FORMATS = ['png', 'jpeg', 'webp'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_PRESET_IDS = [
  'amazon',
  'etsy',
  'shopify',
  'instagram-post',
  'instagram-story',
  'transparent',
] as const;
export type ExportPresetId = (typeof EXPORT_PRESET_IDS)[number];

/** How a preset's frame is filled: the shot's scene, pure white, or nothing (alpha). */
export type ExportBackground = 'scene' | 'white' | 'transparent';

export interface ExportPreset {
  id: ExportPresetId;
  label: string;
  /** Output size in pixels; the transparent cutout keeps the product's own size (null). */
  width: number | null;
  height: number | null;
  /** Smallest longest side the marketplace accepts, checked by the compliance report. */
  minLongestSide: number;
  /** Accepted width:height ratios, e.g. [1] or [4 / 3, 1]; empty: any. */
  aspects: readonly number[];
  background: ExportBackground;
  /** Smallest share of the frame the product must fill (longest relative side of its box), or null. */
  minFill: number | null;
  /** Share of the border that must be pure white RGB 255 (Amazon's main image), or null. */
  minWhiteBorder: number | null;
  formats: readonly ExportFormat[];
  defaultFormat: ExportFormat;
}

/**
 * Amazon's main image takes JPEG, PNG, TIFF or GIF (JPEG preferred) and no WebP; a transparent
 * cutout needs a format with alpha (PNG or WebP). Etsy and Instagram take the three.
 */
export const EXPORT_PRESETS: Readonly<Record<ExportPresetId, ExportPreset>> = {
  amazon: {
    id: 'amazon',
    label: 'Amazon main image',
    width: 2000,
    height: 2000,
    minLongestSide: 1600,
    aspects: [],
    background: 'white',
    minFill: 0.85,
    minWhiteBorder: 1,
    formats: ['jpeg', 'png'],
    defaultFormat: 'jpeg',
  },
  etsy: {
    id: 'etsy',
    label: 'Etsy listing',
    width: 2400,
    height: 1800,
    minLongestSide: 2000,
    aspects: [4 / 3, 1],
    background: 'scene',
    minFill: null,
    minWhiteBorder: null,
    formats: ['jpeg', 'png', 'webp'],
    defaultFormat: 'jpeg',
  },
  shopify: {
    id: 'shopify',
    label: 'Shopify product',
    width: 2048,
    height: 2048,
    minLongestSide: 2048,
    aspects: [1],
    background: 'scene',
    minFill: null,
    minWhiteBorder: null,
    formats: ['jpeg', 'png', 'webp'],
    defaultFormat: 'jpeg',
  },
  'instagram-post': {
    id: 'instagram-post',
    label: 'Instagram post (4:5)',
    width: 1080,
    height: 1350,
    minLongestSide: 1350,
    aspects: [4 / 5],
    background: 'scene',
    minFill: null,
    minWhiteBorder: null,
    formats: ['jpeg', 'png', 'webp'],
    defaultFormat: 'jpeg',
  },
  'instagram-story': {
    id: 'instagram-story',
    label: 'Instagram story (9:16)',
    width: 1080,
    height: 1920,
    minLongestSide: 1920,
    aspects: [9 / 16],
    background: 'scene',
    minFill: null,
    minWhiteBorder: null,
    formats: ['jpeg', 'png', 'webp'],
    defaultFormat: 'jpeg',
  },
  transparent: {
    id: 'transparent',
    label: 'Transparent cutout',
    width: null,
    height: null,
    minLongestSide: 0,
    aspects: [],
    background: 'transparent',
    minFill: null,
    minWhiteBorder: null,
    formats: ['png', 'webp'],
    defaultFormat: 'png',
  },
};

export function isExportPresetId(value: unknown): value is ExportPresetId {
  return typeof value === 'string' && (EXPORT_PRESET_IDS as readonly string[]).includes(value);
}

export function isExportFormat(value: unknown): value is ExportFormat {
  return typeof value === 'string' && (EXPORT_FORMATS as readonly string[]).includes(value);
}

export const EXPORT_MIME_TYPES: Readonly<Record<ExportFormat, 'image/png' | 'image/jpeg' | 'image/webp'>> = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
};

export const EXPORT_EXTENSIONS: Readonly<Record<ExportFormat, 'png' | 'jpg' | 'webp'>> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
};

const PresetId = StringEnum(EXPORT_PRESET_IDS);
const Format = StringEnum(EXPORT_FORMATS);

/** `POST /api/exports` body. */
export const ExportRequest = Type.Object(
  {
    generationId: Type.String({ minLength: 1, maxLength: 64 }),
    outputIndex: Type.Integer({ minimum: 0, maximum: 5 }),
    preset: PresetId,
    format: Format,
  },
  { additionalProperties: false },
);
export type ExportRequest = Static<typeof ExportRequest>;

/** `POST /api/exports` answer: where the rendered file is (signed, expiring), and the name to save it under. */
export const ExportDto = Type.Object({
  url: Type.String(),
  /** Same-origin path that sends the file through the API with its bearer token, named for saving. */
  downloadPath: Type.String(),
  fileName: Type.String(),
  contentType: Type.String(),
  width: Type.Integer(),
  height: Type.Integer(),
  preset: PresetId,
  format: Format,
});
export type ExportDto = Static<typeof ExportDto>;
export const ExportResponse = Type.Object({ data: ExportDto });
export type ExportResponse = Static<typeof ExportResponse>;

/** Job payload and result of rendering one export (the worker owns the pixels). */
export interface ExportShotJob {
  userId: string;
  generationId: string;
  outputIndex: number;
  preset: ExportPresetId;
  format: ExportFormat;
  /** Where the finished file goes (storage exportKey): the same export asked twice is rendered once. */
  key: string;
}
export interface ExportShotResult {
  key: string;
  width: number;
  height: number;
}

export const COMPLIANCE_CHECK_IDS = [
  'background',
  'fill',
  'size',
  'aspect',
  'not-cut',
  'no-overlay',
  'no-tinted-band',
] as const;
export type ComplianceCheckId = (typeof COMPLIANCE_CHECK_IDS)[number];

/** 'unmeasured': the pixels cannot tell (`measured` says why); never counted as a pass. */
const Status = Type.Union([Type.Literal('pass'), Type.Literal('fail'), Type.Literal('unmeasured')]);
export type ComplianceStatus = Static<typeof Status>;

export const ComplianceLine = Type.Object({
  id: StringEnum(COMPLIANCE_CHECK_IDS),
  /** The verdict in plain words, e.g. 'Background is not pure white'. */
  label: Type.String(),
  status: Status,
  /** What the pixels show, in words, e.g. '62% of the border is #FFFFFF'. */
  measured: Type.String(),
  /** What the preset asks for, e.g. '100% of the border should be #FFFFFF'. */
  target: Type.String(),
  /** For a failing line: the export that fixes it (one click in the app), labelled by what this line needs. */
  fix: Type.Union([Type.Object({ preset: PresetId, label: Type.String() }), Type.Null()]),
});
export type ComplianceLine = Static<typeof ComplianceLine>;

/** What was measured: a generation's output as stored, or the file of one of its exports. */
export const ComplianceSubject = Type.Union([
  Type.Object({ kind: Type.Literal('output') }),
  Type.Object({ kind: Type.Literal('export'), preset: PresetId, format: Format }),
]);
export type ComplianceSubject = Static<typeof ComplianceSubject>;

export const ComplianceReportDto = Type.Object({
  generationId: Type.String(),
  outputIndex: Type.Integer(),
  preset: PresetId,
  subject: ComplianceSubject,
  width: Type.Integer(),
  height: Type.Integer(),
  /** True only when every line passed: an unmeasured line is not a pass. */
  passed: Type.Boolean(),
  lines: Type.Array(ComplianceLine),
  /** Said before the lines, e.g. that a lifestyle shot is for secondary images, not the main image; or null. */
  note: Type.Union([Type.String(), Type.Null()]),
});
export type ComplianceReportDto = Static<typeof ComplianceReportDto>;
export const ComplianceResponse = Type.Object({ data: ComplianceReportDto });
export type ComplianceResponse = Static<typeof ComplianceResponse>;

/**
 * `GET /api/generations/:id/compliance` query: the output by `output` (its index, default 0);
 * with `exportFormat`, the file of that output's export for the same preset in that format
 * (made by POST /api/exports first) is measured instead of the output.
 */
export const ComplianceQuery = Type.Object(
  {
    preset: PresetId,
    output: Type.Optional(Type.Integer({ minimum: 0, maximum: 5 })),
    exportFormat: Type.Optional(Format),
  },
  { additionalProperties: false },
);
export type ComplianceQuery = Static<typeof ComplianceQuery>;

export interface ComplianceCheckJob {
  userId: string;
  generationId: string;
  outputIndex: number;
  preset: ExportPresetId;
  /** Storage key of the file measured. */
  key: string;
  subject: ComplianceSubject;
}
