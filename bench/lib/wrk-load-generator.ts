import { spawn } from 'node:child_process';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { constants } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadGenerator, LoadOptions, LoadRequest, LoadResult } from './load-generator.ts';

const MARKER = 'BENCH_RESULT ';

const STOP = 'BENCH_STOP';

/**
 * wrk runs for its -d duration even after a thread stops, so the script stops its thread at the
 * count and says so; the harness then interrupts wrk, which prints the summary as usual.
 */
function countdown(n: number): string {
  return `local remaining = ${n}
response = function(status, headers, body)
  remaining = remaining - 1
  if remaining == 0 then
    io.write('${STOP}\\n')
    io.flush()
    wrk.thread:stop()
  end
end`;
}

/** Lua for wrk: set the request, and print the figures as one JSON line when done. */
export function wrkScript(request: LoadRequest, stopAfter?: number): string {
  const lua = (s: string) => JSON.stringify(s); // a JSON string literal is a valid Lua string literal for ASCII/escapes used here
  const headers = Object.entries(request.headers ?? {})
    .map(([k, v]) => `wrk.headers[${lua(k)}] = ${lua(v)}`)
    .join('\n');
  return `wrk.method = ${lua(request.method)}
wrk.path = ${lua(request.path)}
${headers}
${request.body === undefined ? '' : `wrk.body = ${lua(request.body)}`}
${stopAfter === undefined ? '' : countdown(stopAfter)}
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('${MARKER}{"requests":%d,"durationUs":%d,"p50Us":%d,"p99Us":%d,"errors":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    e.connect + e.read + e.write + e.timeout))
end
`;
}

/** The figures from wrk's output; throws when the result line is missing. */
export function parseWrkOutput(stdout: string): LoadResult {
  const line = stdout.split('\n').find((l) => l.startsWith(MARKER));
  if (!line) throw new Error(`wrk printed no result line:\n${stdout}`);
  const r = JSON.parse(line.slice(MARKER.length)) as { requests: number; durationUs: number; p50Us: number; p99Us: number; errors: number };
  return {
    requests: r.requests,
    requestsPerSecond: r.durationUs > 0 ? r.requests / (r.durationUs / 1e6) : 0,
    p50Ms: r.p50Us / 1000,
    p99Ms: r.p99Us / 1000,
    errors: r.errors,
  };
}

export class WrkLoadGenerator implements LoadGenerator {
  readonly name = 'wrk';
  readonly #binary: string;

  constructor(binary = '/usr/bin/wrk') {
    this.#binary = binary;
  }

  static async available(binary = '/usr/bin/wrk'): Promise<boolean> {
    return access(binary, constants.X_OK).then(
      () => true,
      () => false,
    );
  }

  async run(baseUrl: string, request: LoadRequest, options: LoadOptions): Promise<LoadResult> {
    const dir = await mkdtemp(join(tmpdir(), 'trellis-bench-'));
    const script = join(dir, 'request.lua');
    try {
      await writeFile(script, wrkScript(request, options.requests));
      // One thread: the server under test is single-threaded and the box has 2 cores.
      // wrk takes whole seconds only.
      const seconds = Math.max(1, Math.round(options.durationSeconds));
      const args = ['-t1', `-c${options.connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', script, baseUrl];
      const stdout = await new Promise<string>((resolve, reject) => {
        const child = spawn(this.#binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let err = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c;
          if (out.includes(STOP)) child.kill('SIGINT');
        });
        child.stderr.on('data', (c: Buffer) => (err += c));
        child.once('error', (e) => reject(new Error(`wrk failed to start: ${e.message}`)));
        child.once('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`wrk exited with ${code}: ${err || out}`))));
      });
      return parseWrkOutput(stdout);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
