import { afterAll } from 'vitest';
import { cleanUpFileEnd } from '../support/cleanup';

// A setup file runs before each test file, while the file is collected: the one moment Vitest keeps an
// afterAll (one registered inside a running test or a beforeAll is dropped without a word).
afterAll(cleanUpFileEnd);
