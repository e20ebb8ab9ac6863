import type { ComplianceResponse, ExportFormat, ExportPresetId, ShotRef } from '@prodshot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

/** The checklist of a shot for a preset; with `exportFormat`, of the shot's export for that preset instead. */
export const getCompliance = ({ generationId, index }: ShotRef, preset: ExportPresetId, exportFormat?: ExportFormat) =>
  request<ComplianceResponse>(
    'GET',
    `/generations/${encodeURIComponent(generationId)}/compliance?${new URLSearchParams({ preset, output: String(index), ...(exportFormat ? { exportFormat } : {}) })}`,
  );

/** One report per shot, preset and file: measured once by the worker, then read from the cache. */
export const complianceQueryOptions = (shot: ShotRef, preset: ExportPresetId, exportFormat?: ExportFormat) =>
  queryOptions({
    queryKey: queryKeys.compliance(shot.generationId, shot.index, preset, exportFormat),
    queryFn: async () => (await getCompliance(shot, preset, exportFormat)).data,
    staleTime: Infinity,
    retry: false,
  });

export function useCompliance(shot: ShotRef, preset: ExportPresetId, exportFormat?: ExportFormat) {
  return useQuery(complianceQueryOptions(shot, preset, exportFormat));
}
