import { reachable } from 'trellis/testing';

/** Whether something answers on the Redis port (the bench uses DB 15 and its own key prefix). */
export function redisAvailable(host = '127.0.0.1', port = 6379, timeoutMs = 500): Promise<boolean> {
  return reachable(`redis://${host}:${port}`, port, timeoutMs);
}
