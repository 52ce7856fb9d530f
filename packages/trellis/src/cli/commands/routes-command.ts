import type { Command } from 'commander';
import type { ResourceDefinition } from '../../resources/define-resource.ts';
import type { Operation } from '../../resources/operation.ts';
import type { SecurityRule } from '../../security/security-rule.ts';
import { declaredApp } from '../declared-app.ts';
import { findProject } from '../project.ts';
import type { Output } from '../output.ts';

const ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

function describeRule(rule: SecurityRule | null): string {
  if (rule === null) return '';
  return typeof rule === 'string' ? rule : `${rule.name || 'function'}()`;
}

export interface RouteRow {
  method: string;
  path: string;
  operation: string | null;
  security: string | null;
  securityPostDenormalize: string | null;
}

/**
 * Every route the app answers, one row per path and operation: methods that reach the same
 * operation share a row (`GET|HEAD`), and a `.:ext` route (format by extension) names the
 * operation of the path it extends.
 */
export function routeRows(routes: readonly { method: string; url: string }[], resources: readonly unknown[]): RouteRow[] {
  const operations = new Map<string, Operation>();
  for (const resource of resources as ResourceDefinition[]) for (const op of resource.operations) operations.set(`${op.method} ${op.path}`, op);
  const rows = new Map<string, RouteRow>();
  for (const { method, url } of routes) {
    const base = url.endsWith('.:ext') ? url.slice(0, -'.:ext'.length) : url;
    const op = operations.get(`${method === 'HEAD' ? 'GET' : method} ${base}`) ?? null;
    const key = `${url} ${op ? `${op.resource.name}.${op.name}` : ''}`;
    const row = rows.get(key);
    if (row) {
      if (!row.method.split('|').includes(method)) row.method += `|${method}`;
      continue;
    }
    rows.set(key, {
      method,
      path: url,
      operation: op ? `${op.resource.name}.${op.name}` : null,
      security: op ? describeRule(op.security) || null : null,
      securityPostDenormalize: op ? describeRule(op.securityPostDenormalize) || null : null,
    });
  }
  const rank = (m: string) => ORDER.indexOf(m.split('|')[0]!);
  return [...rows.values()].sort((a, b) => a.path.localeCompare(b.path) || rank(a.method) - rank(b.method));
}

/** `trellis routes [--json]`: method, path, operation and security rule of every route. */
export function routesCommand(program: Command, out: Output): void {
  program
    .command('routes')
    .description('list every route: method, path, operation, security rules')
    .option('--json', 'machine-readable output')
    .option('--production', 'the production configuration\'s routes (no profiler)')
    .option('--app <module>', 'the app module')
    .action(async (options: { json?: boolean; production?: boolean; app?: string }) => {
      const mod = await findProject(process.cwd(), options.app).load();
      const declared = await declaredApp(mod, options.production);
      try {
        const rows = routeRows(declared.routes, mod.resources);
        if (options.json) return out.json(rows);
        out.table(
          ['method', 'path', 'operation', 'security', 'after deserialisation'],
          rows.map((r) => [r.method, r.path, r.operation ?? out.dim('-'), r.security ?? (r.operation ? out.dim('public') : ''), r.securityPostDenormalize ?? '']),
        );
      } finally {
        await declared.close();
      }
    });
}
