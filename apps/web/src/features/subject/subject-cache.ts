import type { ServerToClientEvents, SubjectDto } from '@prodshot/contracts';

type SubjectEvent = Parameters<ServerToClientEvents['image:subject']>[0];

/**
 * A poll sent before the worker finished can answer after the socket said 'ready': a finished
 * subject never moves back to 'pending', or the tap step would flicker away and the poll restart.
 */
export function mergeSubject(current: SubjectDto | undefined, incoming: SubjectDto): SubjectDto {
  if (current && current.status !== 'pending' && incoming.status === 'pending') return current;
  return incoming;
}

export function subjectFromEvent({ at: _at, ...subject }: SubjectEvent): SubjectDto {
  return subject;
}
