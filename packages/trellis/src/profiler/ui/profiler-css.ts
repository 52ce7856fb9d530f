import { readFileSync } from 'node:fs';
import { exceptionCss } from '../../errors/exception-css.ts';

/** The profiler's stylesheet, with the exception view's (shared with the debug error page), read once. */
export const profilerCss: string = `${exceptionCss}\n${readFileSync(new URL('./profiler.css', import.meta.url), 'utf8')}`;
