import type { UserProfile } from '@prodshot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { request } from '../../../lib/api-client.js';
import { queryKeys } from '../../../lib/query-keys.js';

export const updateProfile = (name: string) => request<UserProfile>('PATCH', '/users/profile', { name });

/** Renames the seller; the answer replaces the cached profile, so the menu shows the new name at once. */
export function useUpdateProfile({ onSuccess, onError }: { onSuccess: () => void; onError: () => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: string) => updateProfile(value),
    onSuccess: (updated) => {
      queryClient.setQueryData(queryKeys.profile, updated);
      onSuccess();
    },
    onError,
  });
}
