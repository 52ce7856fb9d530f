import type { JsonSchema } from './json-schema.ts';

/** Which authenticators the firewall runs, as the docs describe them. */
export interface AuthenticationMethods {
  /** `POST <loginPath>` issues JWTs for the bearer scheme; null when there is no login route. */
  readonly loginPath: string | null;
  readonly bearer: boolean;
  readonly apiKey: boolean;
  readonly basic: boolean;
}

export interface SecuritySchemes {
  readonly schemes: Record<string, JsonSchema>;
  /** Any one scheme satisfies a secured operation (OpenAPI §4.8.30: alternatives). */
  readonly required: JsonSchema[];
  /** As `required`, plus `{}`: anonymous requests are accepted too. */
  readonly optional: JsonSchema[];
}

/** The OpenAPI security schemes of the firewall's authenticators (RFC 6750 bearer, X-API-Key, RFC 7617 Basic). */
export function securitySchemes(methods: AuthenticationMethods): SecuritySchemes {
  const schemes: Record<string, JsonSchema> = {};
  if (methods.bearer) {
    schemes.bearerAuth = {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: methods.loginPath ? `A JWT from \`POST ${methods.loginPath}\` with \`{"email": …, "password": …}\`; paste the \`token\` value.` : 'A JWT.',
    };
  }
  if (methods.apiKey) schemes.apiKey = { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'An API key of the user.' };
  if (methods.basic) schemes.basicAuth = { type: 'http', scheme: 'basic', description: 'E-mail and password (debug configuration only).' };
  const required = Object.keys(schemes).map((name) => ({ [name]: [] }));
  return { schemes, required, optional: [{}, ...required] };
}
