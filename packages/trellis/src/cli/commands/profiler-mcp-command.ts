import type { Command } from 'commander';
import { once } from 'node:events';
import { createProfilerMcpServer } from '../../profiler/mcp/profiler-mcp-server.ts';
import type { Output } from '../output.ts';
import { openCliProfileSource, withSourceOptions, type SourceOptions } from '../profiler-source-option.ts';

/**
 * `trellis profiler:mcp`: the profiler's MCP server on stdin/stdout, for an agent that starts it as
 * a process (its MCP client configuration names this command). It reads what the other profiler
 * commands read: the store PROFILER_DSN names, or a running app (`--url`). stdout carries only the
 * protocol; it runs until the client closes stdin.
 */
export function profilerMcpCommand(program: Command, _out: Output): void {
  withSourceOptions(program.command('profiler:mcp').description('serve the profiler to AI agents over MCP (stdio)')).action(async (options: SourceOptions) => {
    const source = await openCliProfileSource(options);
    const [{ StdioServerTransport }, server] = await Promise.all([import('@modelcontextprotocol/sdk/server/stdio.js'), createProfilerMcpServer(source)]);
    await server.connect(new StdioServerTransport());
    await once(process.stdin, 'end');
    await server.close();
    await source.close();
  });
}
