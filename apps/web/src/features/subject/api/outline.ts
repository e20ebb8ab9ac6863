import type { SubjectResponse, Tap } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

const outlinePath = (imageId: string) => `/images/${encodeURIComponent(imageId)}/outline`;

/** The outline again for the seller's taps (none: the engine's own pick); free, answered once the worker made it. */
export const remakeOutline = (imageId: string, taps: readonly Tap[]) =>
  request<SubjectResponse>('POST', outlinePath(imageId), taps.length ? { focus: taps } : {});
/** "Yes, that's my product": the outline shown is the one generations use. */
export const confirmOutline = (imageId: string) => request<SubjectResponse>('POST', `${outlinePath(imageId)}/confirm`);

/** Both outline calls answer the whole subject: it replaces the cached one, so every screen shows the new outline. */
export function useOutlineActions(imageId: string | null) {
  const queryClient = useQueryClient();
  const onSuccess = (answer: SubjectResponse) =>
    queryClient.setQueryData(queryKeys.subject(answer.data.imageId), answer);
  const remake = useMutation({ mutationFn: (taps: readonly Tap[]) => remakeOutline(imageId!, taps), onSuccess });
  const confirm = useMutation({ mutationFn: () => confirmOutline(imageId!), onSuccess });
  return { remake, confirm, busy: remake.isPending || confirm.isPending, error: remake.error ?? confirm.error };
}
