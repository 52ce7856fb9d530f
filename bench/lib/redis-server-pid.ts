import { readFile } from 'node:fs/promises';
import { redisAvailable } from './redis-available.ts';

/**
 * The process id of the Redis server on `host`:`port`, when it runs on this machine: Redis says its own
 * (`INFO server`, process_id), and `/proc/<pid>/comm` must name a redis-server, since a server in
 * a container or on another host reports a pid that means nothing (or something else) here.
 * Null when Redis does not answer or is not a process of this machine.
 */
export async function redisServerPid(host = '127.0.0.1', port = 6379): Promise<number | null> {
  if (!(await redisAvailable(host, port))) return null;
  const { Redis } = await import('ioredis');
  // One try, bounded: something on the port that is not Redis must not keep the bench waiting.
  const client = new Redis({ host, port, lazyConnect: true, enableReadyCheck: false, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 1000, commandTimeout: 1000 });
  try {
    await client.connect();
    const pid = Number(/^process_id:(\d+)\r?$/m.exec(await client.info('server'))?.[1]);
    if (!Number.isInteger(pid) || pid <= 0) return null;
    const comm = await readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '');
    return comm.startsWith('redis-server') ? pid : null;
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}
