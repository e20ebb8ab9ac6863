export function lockfileProblems(dir: string): string[];
