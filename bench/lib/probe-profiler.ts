import { ServerProcess, type ServerSpec } from './server-process.ts';

/**
 * Whether the profiler is really there: a debug server with the profiler on answers with an
 * X-Debug-Token header (until the profiler issue lands, its plugin is an empty placeholder).
 * Returns null when it is, else the reason to skip.
 */
export async function profilerMissing(spec: ServerSpec, root: string, path = '/robots.txt'): Promise<string | null> {
  let server: ServerProcess | null = null;
  try {
    server = await ServerProcess.start(spec, root);
    const res = await fetch(new URL(path, server.url));
    await res.arrayBuffer();
    return res.headers.has('x-debug-token') ? null : `the profiler has not landed (a debug response to GET ${path} carries no X-Debug-Token header)`;
  } catch (error) {
    return `the profiled server did not start: ${(error as Error).message.split('\n')[0]}`;
  } finally {
    await server?.stop();
  }
}
