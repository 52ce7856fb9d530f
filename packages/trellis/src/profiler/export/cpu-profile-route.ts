import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import type { CpuSample } from '../cpu/cpu-profile.ts';
import type { Profile } from '../profile.ts';
import { dataOf } from '../ui/panels/panel.ts';

/**
 * `GET /_profiler/<token>.cpuprofile`: the CPU profile of a request sent with
 * `X-Trellis-Profile-CPU: 1` (the CPU panel), as the file Chrome DevTools and VS Code load, from
 * the stored profile. Behind the profiler's gate like every profiler page.
 */
export function cpuProfileRoute(app: FastifyInstance, page: RouteShorthandOptions, load: (token: string) => Promise<Profile | null>): void {
  app.get<{ Params: { token: string } }>('/_profiler/:token.cpuprofile', page, async (request, reply) => {
    const { token } = request.params;
    const profile = await load(token);
    if (!profile) throw HttpError.of('profiler_token_not_found', { token });
    const cpu = dataOf<CpuSample>(profile, 'cpu');
    if (!cpu) throw HttpError.of('profiler_cpu_profile_not_found', { token: profile.token });
    return reply
      .type('application/json; charset=utf-8')
      .header('content-disposition', `attachment; filename="trellis-${profile.token}.cpuprofile"`)
      .send(JSON.stringify(cpu.profile));
  });
}
