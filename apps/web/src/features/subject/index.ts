/** What other features use of the subject: the subjects of several uploads, and whether an outline holds a paid call back. */
export { useSubjects } from './api/get-subject.js';
export { outlineHolds } from './outline-check.js';
