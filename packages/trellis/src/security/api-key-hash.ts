import { createHash } from 'node:crypto';

/** How API keys are stored and looked up: the lowercase sha256 hex of the key. */
export function apiKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
