import type { ErrorView } from './error-view.ts';

/**
 * The problem details document (RFC 9457). `type` is "about:blank" (§4.2.1: the status code says it
 * all) so `title` is the status phrase; `detail` is the exact message; `code` is our stable,
 * machine-readable extension member. In debug the exception chain rides along as `exceptions`.
 */
export function problemBody(view: ErrorView): Record<string, unknown> {
  const body: Record<string, unknown> = {
    type: 'about:blank',
    title: view.title,
    status: view.status,
    detail: view.message,
    code: view.code,
    ...view.extensions,
  };
  if (view.debug) body.exceptions = exceptionsOf(view);
  return body;
}

/** The exception chain of a debug error view, as the JSON error documents carry it. */
export function exceptionsOf(view: ErrorView): { class: string; message: string; trace: { function: string; file: string; line: number; column: number }[] }[] {
  return view.chain.map((e) => ({
    class: e.class,
    message: e.message,
    trace: e.frames.map((f) => ({ function: f.function, file: f.file, line: f.line, column: f.column })),
  }));
}
