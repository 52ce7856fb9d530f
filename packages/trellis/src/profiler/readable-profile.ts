import { readableBody, type CapturedBody } from './capture-body.ts';
import type { Profile } from './profile.ts';

/**
 * A stored profile as the pages and the JSON view show it: the response body, stored as sent,
 * indented when it is JSON. Indenting on read costs one parse per page view instead of one per
 * recorded request.
 */
export function readableProfile(profile: Profile): Profile {
  const response = profile.collectors.response as { body?: CapturedBody; contentType?: string | null } | undefined;
  if (!response?.body || typeof response.body !== 'object') return profile;
  const body = readableBody(response.body, response.contentType ?? null);
  if (body === response.body) return profile;
  return { ...profile, collectors: { ...profile.collectors, response: { ...response, body } } };
}
