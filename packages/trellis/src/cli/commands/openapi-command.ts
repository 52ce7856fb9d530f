import type { Command } from 'commander';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CliError } from '../cli-error.ts';
import { declaredApp } from '../declared-app.ts';
import { loadEnv } from '../cli-config.ts';
import { findProject } from '../project.ts';
import type { Output } from '../output.ts';

/** `trellis openapi [--yaml] [--production] [--output file]`: the document the app serves at /docs.json. */
export function openapiCommand(program: Command, _out: Output): void {
  program
    .command('openapi')
    .description('print the OpenAPI 3.1 document (built from the declarations; nothing is opened)')
    .option('--yaml', 'YAML instead of JSON')
    .option('--production', 'the production configuration\'s document (no HTTP Basic scheme)')
    .option('-o, --output <file>', 'write to a file instead of standard output')
    .option('--app <module>', 'the app module')
    .action(async (options: { yaml?: boolean; production?: boolean; output?: string; app?: string }) => {
      const project = findProject(process.cwd(), options.app);
      const mod = await project.load();
      // The port `trellis serve` listens on here (PORT, from the environment or .env), 8000 by default.
      const asked = Number(loadEnv(project.root).PORT);
      const port = Number.isInteger(asked) && asked >= 1 && asked <= 65535 ? asked : 8000;
      const declared = await declaredApp(mod, options.production);
      try {
        const url = options.yaml ? '/docs.yaml' : '/docs.json';
        // Asked on the address `trellis serve` listens on, so `servers` names it (unless the app
        // module's `docs.servers` does), not inject's localhost:80.
        const res = await declared.app.inject({ method: 'GET', url, headers: { host: `localhost:${port}` } });
        if (res.statusCode !== 200) throw new CliError('openapi_failed', `GET ${url} answered ${res.statusCode}.`);
        const text = options.yaml ? res.body : `${JSON.stringify(res.json(), null, 2)}\n`;
        if (options.output) writeFileSync(resolve(options.output), text);
        else process.stdout.write(text);
      } finally {
        await declared.close();
      }
    });
}
