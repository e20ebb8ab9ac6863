import type { ExportRequest, ExportResponse } from '@prodshot/contracts';
import { request, requestBlob } from '../../../lib/api-client.js';

/** A marketplace export of a finished shot (no credit); its file is then read from `downloadPath`. */
export const exportShot = (body: ExportRequest) => request<ExportResponse>('POST', '/exports', body);

export const getExportFile = (downloadPath: string) => requestBlob(downloadPath);
