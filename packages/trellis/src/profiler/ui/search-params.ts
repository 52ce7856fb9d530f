import { isIP } from 'node:net';
import { HttpError } from '../../kernel/http-error.ts';
import type { ProfileQuery } from '../profile.ts';
import { parseTime } from './format-time.ts';

/** The search form's fields as sent (query string names of the seed's Symfony profiler). */
export interface SearchParams {
  readonly ip: string;
  readonly method: string;
  readonly status_code: string;
  readonly url: string;
  readonly token: string;
  readonly start: string;
  readonly end: string;
  readonly limit: string;
  /** `1`: pinned profiles only. */
  readonly pinned: string;
}

export const LIMITS = [10, 50, 100] as const;

const field = (query: Record<string, unknown>, name: string): string => {
  const v = query[name];
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' ? s.trim() : '';
};

export function searchParams(query: unknown): SearchParams {
  const q = (query ?? {}) as Record<string, unknown>;
  return {
    ip: field(q, 'ip'),
    method: field(q, 'method'),
    // `status` as the live view and the JSON's readers name it; the form's own name wins.
    status_code: field(q, 'status_code') || field(q, 'status'),
    url: field(q, 'url'),
    token: field(q, 'token'),
    start: field(q, 'start'),
    end: field(q, 'end'),
    limit: field(q, 'limit'),
    pinned: field(q, 'pinned'),
  };
}

const invalid = (name: string, detail: string) => HttpError.of('profiler_invalid_search', { name, detail });

/** The storage query for the form's values; a malformed value is a 400 naming the field. */
export function toProfileQuery(p: SearchParams): ProfileQuery {
  const query: { -readonly [K in keyof ProfileQuery]: ProfileQuery[K] } = { limit: 10 };
  if (p.limit !== '') {
    if (!/^\d{1,3}$/.test(p.limit) || Number(p.limit) < 1 || Number(p.limit) > 100) throw invalid('limit', 'expected a whole number from 1 to 100');
    query.limit = Number(p.limit);
  }
  if (p.ip !== '') {
    // Profiles are found by the exact address: anything else would silently match nothing.
    if (isIP(p.ip) === 0) throw invalid('ip', 'expected an IP address such as 127.0.0.1 or ::1');
    query.ip = p.ip;
  }
  if (p.method !== '') {
    if (!/^[A-Za-z]{1,20}$/.test(p.method)) throw invalid('method', 'expected an HTTP method name');
    query.method = p.method.toUpperCase();
  }
  if (p.status_code !== '') {
    const statusClass = /^([1-5])xx$/i.exec(p.status_code);
    if (statusClass) query.statusClass = Number(statusClass[1]) as 1 | 2 | 3 | 4 | 5;
    else if (!/^[1-5]\d\d$/.test(p.status_code)) throw invalid('status_code', 'expected a status code from 100 to 599, or a class such as 4xx');
    else query.statusCode = Number(p.status_code);
  }
  if (p.url !== '') query.url = p.url;
  if (p.pinned !== '') {
    if (p.pinned !== '1') throw invalid('pinned', 'expected 1 (pinned profiles only) or nothing');
    query.pinned = true;
  }
  if (p.token !== '') query.token = p.token;
  for (const [name, key] of [['start', 'start'], ['end', 'end']] as const) {
    if (p[name] === '') continue;
    const ms = parseTime(p[name]);
    if (ms === null) throw invalid(name, 'expected a date such as 2026-11-22T08:05 or 22-Nov-2026 08:05:09');
    query[key] = ms;
  }
  return query;
}

/** The search URL for some parameters (empty ones left out). */
export function searchHref(p: Partial<SearchParams>, path = '/_profiler/search'): string {
  const qs = new URLSearchParams(Object.entries(p).filter(([, v]) => v) as [string, string][]).toString();
  return qs ? `${path}?${qs}` : path;
}
