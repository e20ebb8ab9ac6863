import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

// Without vitest globals, testing-library cannot register its own cleanup.
afterEach(() => cleanup());
