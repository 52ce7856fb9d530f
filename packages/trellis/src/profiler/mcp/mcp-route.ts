import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { ServerResponse } from 'node:http';
import { HttpError } from '../../kernel/http-error.ts';
import type { ProfileSource } from '../profile-source.ts';
import { PROFILER_PAGE_HEADERS } from '../ui/layout.ts';
import { createProfilerMcpServer } from './profiler-mcp-server.ts';

/** The endpoint's name under `/_profiler/`, which `/_profiler/:token` hands on for GET and HEAD. */
export const MCP_NAME = 'mcp';

/**
 * JSON-RPC 2.0 §6: an empty array is not a batch but an invalid request, answered with one error
 * (id null, the message of §5.1's table, which the SDK's own -32600 answers begin with).
 */
const EMPTY_BATCH = JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' }, id: null });

/**
 * `POST /_profiler/mcp`: the profiler's MCP server over streamable HTTP, stateless (a server and a
 * transport per request, answers as JSON), behind the profiler's gate like every profiler route
 * (`page`), and so in the debug configuration only. The SDK is loaded on the first call. Every
 * other method is the router's 405 with `Allow: POST` (GET and HEAD by way of `/_profiler/:token`).
 */
export function mcpRoute(app: FastifyInstance, page: RouteShorthandOptions, source: ProfileSource): void {
  app.post(`/_profiler/${MCP_NAME}`, page, async (request, reply) => {
    // Agents send no Origin; a browser always does on a POST, and a page that rebound its own host
    // name to this machine (DNS rebinding) would pass the gate as a loopback client.
    if (request.headers.origin !== undefined) throw HttpError.of('profiler_mcp_origin', {});
    // The SDK would take `[]` for a batch of nothing to answer (202, no body). A non-empty batch
    // stays the SDK's to judge (MCP 2025-06-18 removed batching; older revisions have it).
    if (Array.isArray(request.body) && request.body.length === 0) {
      // As the SDK answers its own -32600s: HTTP 400, application/json.
      hijack(reply).writeHead(400, { 'content-type': 'application/json' }).end(EMPTY_BATCH);
      return;
    }
    const [{ StreamableHTTPServerTransport }, server] = await Promise.all([import('@modelcontextprotocol/sdk/server/streamableHttp.js'), createProfilerMcpServer(source)]);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    hijack(reply).on('close', () => void server.close());
    try {
      await transport.handleRequest(request.raw, reply.raw, request.body);
    } catch (error) {
      request.log.error({ err: error, channel: 'profiler' }, `The profiler's MCP server failed: ${(error as Error)?.message}`);
      if (!reply.raw.headersSent) reply.raw.writeHead(500).end();
      else reply.raw.end();
    }
  });
}

/** The answer is written to the socket (onSend won't run): the profiler's headers go on first. */
function hijack(reply: FastifyReply): ServerResponse {
  reply.hijack();
  for (const [name, value] of Object.entries({ ...PROFILER_PAGE_HEADERS, 'cache-control': 'no-cache, private', 'x-robots-tag': 'noindex' })) reply.raw.setHeader(name, value);
  return reply.raw;
}
