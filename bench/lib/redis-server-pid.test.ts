import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { redisForTests } from 'trellis/testing';
import { redisServerPid } from './redis-server-pid.ts';

const redis = await redisForTests();

describe('redisServerPid', { skip: redis.skip }, () => {
  test('the Redis server of this machine: a process whose name is redis-server', async () => {
    const { hostname, port } = new URL(redis.url!);
    const pid = await redisServerPid(hostname, Number(port || 6379));
    assert.equal(typeof pid, 'number');
    assert.match(await readFile(`/proc/${pid}/comm`, 'utf8'), /^redis-server/);
  });
});

test('nothing listening, or something that is not Redis: null', async () => {
  const closed = createServer();
  await new Promise<void>((listening) => closed.listen(0, '127.0.0.1', listening));
  const freePort = (closed.address() as { port: number }).port;
  await new Promise((gone) => closed.close(gone));
  assert.equal(await redisServerPid('127.0.0.1', freePort), null);

  // A server that answers every command with an error, as no Redis would to INFO.
  const sockets = new Set<import('node:net').Socket>();
  const impostor = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => socket.write('-ERR unknown command\r\n'));
  });
  await new Promise<void>((listening) => impostor.listen(0, '127.0.0.1', listening));
  try {
    assert.equal(await redisServerPid('127.0.0.1', (impostor.address() as { port: number }).port), null);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((gone) => impostor.close(gone));
  }
});
