import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../kernel/http-error.ts';
import type { ErrorFormat } from './error-format.ts';
import { errorView } from './error-view.ts';

const request = { method: 'GET', url: '/x', headers: {} } as unknown as FastifyRequest;
const hostile = '<script>alert("x")</script> & "quotes"';

const views = [
  errorView(HttpError.of('route_not_found', { method: 'GET', path: `/${hostile}` }, { cause: HttpError.of('routing_resource_not_found', { path: '/x' }) }), { debug: true, logs: [] }),
  errorView(HttpError.of('route_not_found', { method: 'GET', path: '/x' }), { debug: false, logs: [] }),
  errorView(HttpError.of('internal_error', { detail: 'secret internals' }, { cause: new TypeError('boom') }), { debug: false, logs: [] }),
  errorView(new HttpError(418, 'teapot', hostile), {
    debug: true,
    logs: [{ time: 0, level: 'warn', channel: 'app', message: hostile, context: { x: hostile } }],
  }),
];

/**
 * The ErrorFormat contract (see error-format.ts): for every view and each of its media types,
 * `render` returns a complete body without throwing, states the message that may be shown, and
 * outside debug never carries what only debug may show.
 */
export function errorFormatContract(format: ErrorFormat, parse: (body: string) => string): void {
  describe(`ErrorFormat contract: ${format.name}`, () => {
    test('renders every view in each media type, with the public message', () => {
      for (const mediaType of format.mediaTypes) {
        for (const view of views) {
          const body = format.render(view, mediaType, request);
          assert.equal(typeof body, 'string');
          assert.ok(parse(body).includes(view.message), `${mediaType}: message missing`);
        }
      }
    });

    test('outside debug: no internals (500 detail, class names, frames)', () => {
      const body = format.render(views[2]!, format.mediaTypes[0]!, request);
      assert.equal(body.includes('secret internals'), false);
      assert.equal(body.includes('TypeError'), false);
      assert.equal(/\.ts:\d+/.test(body), false);
    });
  });
}
