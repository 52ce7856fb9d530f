import type { LoadGenerator } from './load-generator.ts';
import { AutocannonLoadGenerator } from './autocannon-load-generator.ts';
import { WrkLoadGenerator } from './wrk-load-generator.ts';

/** wrk when installed (less CPU taken from the server on a small box), else autocannon. */
export async function pickLoadGenerator(preference: 'auto' | 'wrk' | 'autocannon' = 'auto'): Promise<LoadGenerator> {
  if (preference === 'autocannon') return new AutocannonLoadGenerator();
  if (await WrkLoadGenerator.available()) return new WrkLoadGenerator();
  if (preference === 'wrk') throw new Error('wrk was asked for (--tool=wrk) but /usr/bin/wrk is not installed');
  return new AutocannonLoadGenerator();
}
