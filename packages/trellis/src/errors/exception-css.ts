import { readFileSync } from 'node:fs';

/** The exception view's stylesheet, read once. */
export const exceptionCss: string = readFileSync(new URL('./exception.css', import.meta.url), 'utf8');
