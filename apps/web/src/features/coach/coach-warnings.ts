import type { CoachWarning, SubjectDto } from '@prodshot/contracts';

/**
 * An upload's warnings as the screens know them: the subject's once it has come (it carries the
 * product checks too), else those the upload itself came back with (the pixel checks).
 */
export function coachWarnings(
  subject: SubjectDto | undefined,
  image: { coach?: CoachWarning[] } | undefined,
): CoachWarning[] {
  return subject?.coach ?? image?.coach ?? [];
}
