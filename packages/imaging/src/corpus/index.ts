// The shared corpus beside the repository, for tests, the bench and the CLI; run from source only, never built.
export { corpusDir, corpusFiles, corpusFolder, repoRoot, type CorpusFolder } from './corpus.js';
