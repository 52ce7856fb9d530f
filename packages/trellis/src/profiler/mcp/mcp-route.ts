import type { FastifyInstance, RouteShorthandOptions } from 'fastify';
import { HttpError } from '../../kernel/http-error.ts';
import type { ProfileSource } from '../profile-source.ts';
import { PROFILER_PAGE_HEADERS } from '../ui/layout.ts';
import { createProfilerMcpServer } from './profiler-mcp-server.ts';

/**
 * `POST /_profiler/mcp`: the profiler's MCP server over streamable HTTP, stateless (a server and a
 * transport per request, answers as JSON), behind the profiler's gate like every profiler route
 * (`page`), and so in the debug configuration only. The SDK is loaded on the first call.
 */
export function mcpRoute(app: FastifyInstance, page: RouteShorthandOptions, source: ProfileSource): void {
  app.post('/_profiler/mcp', page, async (request, reply) => {
    // Agents send no Origin; a browser always does on a POST, and a page that rebound its own host
    // name to this machine (DNS rebinding) would pass the gate as a loopback client.
    if (request.headers.origin !== undefined) throw HttpError.of('profiler_mcp_origin', {});
    const [{ StreamableHTTPServerTransport }, server] = await Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), createProfilerMcpServer(source)]);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    // The transport writes the answer itself: the profiler's headers go on first (onSend won't run).
    reply.hijack();
    for (const [name, value] of Object.entries({ ...PROFILER_PAGE_HEADERS, 'cache-control': 'no-cache, private', 'x-robots-tag': 'noindex' })) reply.raw.setHeader(name, value);
    reply.raw.on('close', () => void server.close());
    try {
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error, channel: 'profiler' }, `The profiler's MCP server failed: ${(error as Error)?.message}`);
      if (!reply.raw.headersSent) reply.raw.writeHead(500).end();
      else reply.raw.end();
    }
  });
}
