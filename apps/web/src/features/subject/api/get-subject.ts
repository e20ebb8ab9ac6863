import type { SubjectDto, SubjectResponse } from '@prodshot/contracts';
import { useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
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

function subjectQuery(queryClient: QueryClient, imageId: string | null) {
  return {
    queryKey: queryKeys.subject(imageId ?? ''),
    queryFn: async (): Promise<SubjectResponse> => {
      const fetched = await getSubject(imageId!);
      const cached = queryClient.getQueryData<SubjectResponse>(queryKeys.subject(imageId!));
      return { data: mergeSubject(cached?.data, fetched.data) };
    },
    enabled: imageId !== null,
    // An upload is analysed once: a finished subject changes only by the seller's own outline calls, which set it.
    staleTime: Infinity,
    refetchInterval: (q: { state: { data?: SubjectResponse | undefined } }) =>
      q.state.data?.data.status === 'pending' ? SUBJECT_POLL_MS : false,
  };
}

/** The subjects of several uploads at once (a batch draft's photos), from the same cache the single screens use. */
export function useSubjects(imageIds: (string | null)[]): (SubjectDto | undefined)[] {
  const queryClient = useQueryClient();
  return useQueries({ queries: imageIds.map((imageId) => subjectQuery(queryClient, imageId)) }).map(
    (query) => query.data?.data,
  );
}

/** The subject of an upload (by its _id), kept current by 'image:subject' events and by polling while pending. */
export function useSubject(imageId: string | null): SubjectState {
  const queryClient = useQueryClient();
  const query = useQuery(subjectQuery(queryClient, imageId));
  if (imageId === null) return { subject: undefined, phase: 'idle' };
  const subject = query.data?.data;
  return { subject, phase: phaseOf(subject, query.isError) };
}
