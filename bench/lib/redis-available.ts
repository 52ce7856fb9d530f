import net from 'node:net';

/** Whether something answers on the Redis port (the bench uses DB 15 and its own key prefix). */
export function redisAvailable(host = '127.0.0.1', port = 6379, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}
