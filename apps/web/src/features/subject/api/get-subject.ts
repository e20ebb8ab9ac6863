import type { SubjectDto, SubjectResponse } from '@prodshot/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';
import { mergeSubject } from '../subject-cache.js';

/** Which object of the upload is the product; id is the image's _id or its fileId. */
export const getSubject = (id: string) => request<SubjectResponse>('GET', `/images/${encodeURIComponent(id)}/subject`);

/** The socket usually answers first; the poll covers a socket that is away or an event that was lost. */
export const SUBJECT_POLL_MS = 1500;

/**
 * Where an upload's subject stands for the screens: `tap` asks the seller to tap their product,
 * `unavailable` means the endpoint did not answer, and generation goes on without a focus as it did
 * before the tap step existed.
 */
export type SubjectPhase = 'idle' | 'pending' | 'tap' | 'ready' | 'failed' | 'unavailable';

export interface SubjectState {
  subject: SubjectDto | undefined;
  phase: SubjectPhase;
}

export function phaseOf(subject: SubjectDto | undefined, unavailable: boolean): SubjectPhase {
  if (!subject) return unavailable ? 'unavailable' : 'pending';
  if (subject.status === 'pending') return 'pending';
  if (subject.status === 'failed') return 'failed';
  return subject.needsFocus ? 'tap' : 'ready';
}

/** The subject of an upload (by its _id), kept current by 'image:subject' events and by polling while pending. */
export function useSubject(imageId: string | null): SubjectState {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: queryKeys.subject(imageId ?? ''),
    queryFn: async (): Promise<SubjectResponse> => {
      const fetched = await getSubject(imageId!);
      const cached = queryClient.getQueryData<SubjectResponse>(queryKeys.subject(imageId!));
      return { data: mergeSubject(cached?.data, fetched.data) };
    },
    enabled: imageId !== null,
    // An upload is analysed once: a finished subject never changes, so only a pending one is read again.
    staleTime: Infinity,
    refetchInterval: (q) => (q.state.data?.data.status === 'pending' ? SUBJECT_POLL_MS : false),
  });
  if (imageId === null) return { subject: undefined, phase: 'idle' };
  const subject = query.data?.data;
  return { subject, phase: phaseOf(subject, query.isError) };
}
