import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { subscribe } from '../observe/channels.ts';
import { markedHandler } from './marked-handler.ts';

const request = { id: 'r1' } as unknown as FastifyRequest;
const reply = {} as FastifyReply;
const self = { name: 'instance' } as unknown as FastifyInstance;

test('publishes the handler phase before the handler runs, with its receiver and its result', () => {
  const seen: string[] = [];
  const off = subscribe('phase', (e) => seen.push(`${e.phase} ${(e.request as unknown as { id: string }).id} ${typeof e.at}`));
  try {
    const handler = markedHandler(function (this: unknown, req, rep) {
      seen.push('ran');
      assert.equal(this, self);
      assert.equal(req, request);
      assert.equal(rep, reply);
      return 'result';
    } as RouteHandlerMethod);
    assert.equal(handler.call(self, request, reply), 'result');
    assert.deepEqual(seen, ['handler r1 number', 'ran']);
  } finally {
    off();
  }
});

test('a promise the handler returns is returned as it is (Fastify awaits it)', async () => {
  const promise = Promise.resolve({ ok: true });
  const handler = markedHandler((async () => promise) as unknown as RouteHandlerMethod);
  assert.deepEqual(await handler.call(self, request, reply), { ok: true });
});

test('with nobody subscribed nothing is published, and errors pass through', () => {
  const handler = markedHandler((() => {
    throw new Error('boom');
  }) as RouteHandlerMethod);
  assert.throws(() => handler.call(self, request, reply), { message: 'boom' });
});

test('a handler wrapped twice publishes once per call', () => {
  let phases = 0;
  const off = subscribe('phase', () => phases++);
  try {
    const once = markedHandler((() => 1) as RouteHandlerMethod);
    const twice = markedHandler(once);
    assert.equal(twice, once);
    twice.call(self, request, reply);
    assert.equal(phases, 1);
  } finally {
    off();
  }
});
