import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { HttpError } from '../../kernel/http-error.ts';
import { compareProfiles } from '../compare/compare-profiles.ts';
import type { ProfileSource } from '../profile-source.ts';
import { searchParams, toProfileQuery } from '../ui/search-params.ts';
import { panelsWithData } from '../profile.ts';

let version: string | undefined;

const json = (value: unknown): CallToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] });
const refusal = (message: string): CallToolResult => ({ content: [{ type: 'text', text: message }], isError: true });

/** A tool's failure as its answer: the exact message of the profiler's pages, never a stack. */
async function answer(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof HttpError) return refusal(error.message);
    return refusal(`The profile store could not be read: ${(error as Error)?.message ?? String(error)}`);
  }
}

/**
 * The profiler as a Model Context Protocol server: tools to search profiles, read one (or one of
 * its panels) and compare two, over whatever source it is given (the app's store for
 * `/_profiler/mcp`, a store or an app for `trellis profiler:mcp`). Only stored data, redacted
 * before storage, ever reaches an answer. The SDK and zod are loaded when a server is first made,
 * so an app that never serves MCP never loads them.
 */
export async function createProfilerMcpServer(source: ProfileSource): Promise<McpServer> {
  version ??= (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  const [{ McpServer }, { z }] = await Promise.all([import('@modelcontextprotocol/sdk/server/mcp.js'), import('zod')]);
  const server = new McpServer(
    { name: 'trellis-profiler', version },
    { instructions: 'Profiles of the HTTP requests a Trellis app handled (debug configuration): search them, read one (a panel at a time: request, response, time, cpu (when one was asked for), exception, logs, db, security, router, api, http_client, events), compare two to see why one is slower. Secrets were redacted before storage and show as [redacted].' },
  );
  const readOrFail = async (token: string) => {
    const profile = await source.read(token.trim().toLowerCase());
    if (!profile) throw HttpError.of('profiler_token_not_found', { token });
    return profile;
  };

  server.registerTool(
    'search_profiles',
    {
      title: 'Search profiles',
      description: 'Recorded requests, newest first: token, parent (for a sub-request), client ip, method, url, time (epoch ms), statusCode, durationMs. Every filter is optional.',
      inputSchema: {
        method: z.string().max(20).optional().describe('HTTP method, e.g. GET'),
        statusCode: z.number().int().optional().describe('exact status code, e.g. 500'),
        url: z.string().max(2000).optional().describe('part of the URL'),
        ip: z.string().max(64).optional().describe('exact client address'),
        limit: z.number().int().min(1).max(100).optional().describe('at most this many (default 20)'),
        mainOnly: z.boolean().optional().describe('leave out error sub-requests'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const query = toProfileQuery(searchParams({ method: args.method, status_code: args.statusCode === undefined ? undefined : String(args.statusCode), url: args.url, ip: args.ip, limit: String(args.limit ?? 20) }));
        const results = await source.find(args.mainOnly ? { ...query, mainOnly: true } : query);
        return json({ count: results.length, results });
      }),
  );

  server.registerTool(
    'read_profile',
    {
      title: 'Read a profile',
      description: 'One profile by token ("latest" for the newest request): its summary, its sub-requests and the data of every panel, or of one panel only (recommended: "time", "db", "exception", "logs", "request", "response", …).',
      inputSchema: {
        token: z.string().max(64).describe('6 hex characters, or latest'),
        panel: z.string().max(64).optional().describe('one panel only'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const profile = await readOrFail(args.token);
        if (args.panel === undefined) return json(profile);
        if (!panelsWithData(profile).includes(args.panel)) throw HttpError.of('profiler_panel_not_found', { token: profile.token, panel: args.panel, panels: panelsWithData(profile).join(', ') });
        const { collectors, children, ...summary } = profile;
        return json({ ...summary, children, panel: args.panel, data: collectors[args.panel] });
      }),
  );

  server.registerTool(
    'compare_profiles',
    {
      title: 'Compare two profiles',
      description: 'What differs between profile a and profile b: status, duration, time per lifecycle phase, queries matched by statement shape (added, removed, changed; counts and durations, biggest change first), request and response headers, body sizes. Deltas are b − a.',
      inputSchema: { a: z.string().max(64).describe('token of the first profile'), b: z.string().max(64).describe('token of the second profile') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => answer(async () => json(compareProfiles(await readOrFail(args.a), await readOrFail(args.b)))),
  );
  return server;
}
