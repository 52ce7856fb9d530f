import type { Command } from 'commander';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCodes } from '../../kernel/error-codes.ts';
import { HttpError } from '../../kernel/http-error.ts';
import type { ProfileQuery, ProfileSummary } from '../../profiler/profile.ts';
import { searchParams, toProfileQuery } from '../../profiler/ui/search-params.ts';
import { CliError } from '../cli-error.ts';
import { tableLine, terminalWidth } from '../fit-table.ts';
import type { Output } from '../output.ts';
import { panelLines, profileLines } from '../profile-details.ts';
import { SUMMARY_HEADER, summaryCells, summaryPaint, summaryTable, streamWidths } from '../profile-rows.ts';
import { withSource, withSourceOptions } from '../profiler-source-option.ts';
import { panelsWithData } from '../../profiler/profile.ts';

interface Filters {
  method?: string;
  status?: string;
  /** Substring of the URL (`--path`: `--url` names the app to read, on every profiler command). */
  path?: string;
  ip?: string;
  limit?: string;
}

/** The search page's field behind each option, for its messages to name the option typed. */
const OPTION_OF_FIELD: Readonly<Record<string, string>> = { method: '--method', status_code: '--status', url: '--path', ip: '--ip', limit: '--limit' };

/** The filters as the search page reads them: the same checks and messages, naming the options (exit 2). */
function queryOf(filters: Filters, defaultLimit = '20'): ProfileQuery {
  try {
    return toProfileQuery(searchParams({ method: filters.method, status_code: filters.status, url: filters.path, ip: filters.ip, limit: filters.limit ?? defaultLimit }));
  } catch (error) {
    if (error instanceof HttpError) throw new CliError('usage', error.message.replace(/^Invalid profiler search parameter "(\w+)"/, (whole, field: string) => (OPTION_OF_FIELD[field] ? `Invalid ${OPTION_OF_FIELD[field]}` : whole)), 2);
    throw error;
  }
}

const withFilters = (command: Command) =>
  command
    .option('--method <method>', 'only this HTTP method')
    .option('--status <code>', 'only this status code (404) or class (5xx)')
    .option('--path <part>', 'only URLs containing this')
    .option('--ip <address>', 'only this client address');

/**
 * `trellis profiler:list`, `profiler:show <token>` and `profiler:tail`: the profiler in a terminal,
 * from the store the app writes or a running app (profiler-source-option.ts).
 */
export function profilerCommands(program: Command, out: Output): void {
  const list = program.command('profiler:list').description('list recorded requests, newest first');
  withFilters(withSourceOptions(list))
    .option('--limit <n>', 'at most this many (1 to 100)', '20')
    .option('--json', 'machine-readable output')
    .action(async (options: Filters & { json?: boolean; url?: string; dsn?: string }) => {
      const query = queryOf(options);
      const found = await withSource(options, (source) => source.find(query));
      if (options.json) return out.json(found);
      if (found.length === 0) return out.line('No profile matches.');
      for (const line of summaryTable(out, found, terminalWidth(process.stdout, process.env))) out.line(line);
    });

  const show = program.command('profiler:show').argument('<token>', 'a profile token, or latest').description('one profile: its facts, phases and panels, or one panel (--panel)');
  withSourceOptions(show)
    .option('--panel <name>', 'only this panel (db, time, request, response, logs, exception, …)')
    .option('--json', 'machine-readable output')
    .action(async (token: string, options: { panel?: string; json?: boolean; url?: string; dsn?: string }) => {
      const profile = await withSource(options, (source) => source.read(token.trim().toLowerCase()));
      if (!profile) throw new CliError('profiler_token_not_found', errorCodes.profiler_token_not_found.message({ token }));
      if (options.panel !== undefined) {
        if (!panelsWithData(profile).includes(options.panel)) throw new CliError('profiler_panel_not_found', errorCodes.profiler_panel_not_found.message({ token: profile.token, panel: options.panel, panels: panelsWithData(profile).join(', ') }));
        if (options.json) return out.json({ token: profile.token, panel: options.panel, data: profile.collectors[options.panel] });
        for (const line of panelLines(out, profile, options.panel, terminalWidth(process.stdout, process.env))) out.line(line);
        return;
      }
      if (options.json) return out.json(profile);
      for (const line of profileLines(out, profile)) out.line(line);
    });

  const tail = program.command('profiler:tail').description('follow requests as they are recorded (Ctrl-C stops)');
  withFilters(withSourceOptions(tail).option('--interval <ms>', 'how often to look for new profiles', '1000').option('--count <n>', 'stop after this many').option('--json', 'one JSON summary per line'))
    .action(async (options: Filters & { interval: string; count?: string; json?: boolean; url?: string; dsn?: string }) => {
      const interval = Number(options.interval);
      if (!Number.isInteger(interval) || interval < 50 || interval > 60_000) throw new CliError('usage', '--interval must be a whole number of milliseconds from 50 to 60000.', 2);
      const count = options.count === undefined ? Infinity : Number(options.count);
      if (!(count === Infinity || (Number.isInteger(count) && count >= 1))) throw new CliError('usage', '--count must be a whole number from 1.', 2);
      const query = queryOf({ ...options, limit: '100' });
      const widths = streamWidths(terminalWidth(process.stdout, process.env));
      await withSource(options, async (source) => {
        // What is stored already is not news: remembered, then only what comes after is printed.
        const seen = new Set((await source.find(query)).map((s) => s.token));
        if (!options.json) out.line(tableLine(SUMMARY_HEADER, widths, (_, t) => out.dim(t)));
        let printed = 0;
        while (printed < count) {
          await sleep(interval);
          const fresh = (await source.find(query)).filter((s) => !seen.has(s.token)).reverse();
          for (const s of fresh.slice(0, count - printed)) print(s);
          printed += Math.min(fresh.length, count - printed);
          for (const s of fresh) seen.add(s.token);
          // The set only needs what a search can still return.
          if (seen.size > 10_000) for (const t of [...seen].slice(0, seen.size - 1000)) seen.delete(t);
        }
      });
      function print(s: ProfileSummary) {
        if (options.json) out.line(JSON.stringify(s));
        else out.line(tableLine(summaryCells(s), widths, summaryPaint(out, s)));
      }
    });
}
