import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// Without vitest globals, testing-library cannot register its own cleanup.
afterEach(() => cleanup());

// waitFor and findBy* give up after 1 s by default; on a loaded 2-core CI machine a lazily loaded
// route chunk alone can take longer. What is awaited is unchanged, only how long it may take.
configure({ asyncUtilTimeout: 5000 });
