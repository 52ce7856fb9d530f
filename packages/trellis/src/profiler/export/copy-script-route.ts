import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { COPY_SCRIPT, COPY_SCRIPT_PATH } from './copy-script.ts';

/** `GET /_profiler/copy.js`: the copy buttons' script (copy-script.ts), behind the gate like every profiler route. */
export function copyScriptRoute(app: FastifyInstance, page: RouteShorthandOptions): void {
  app.get(COPY_SCRIPT_PATH, page, async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(COPY_SCRIPT));
}
