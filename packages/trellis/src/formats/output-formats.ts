import type { Format } from './format.ts';
import { halFormat } from './hal/hal-format.ts';
import { jsonFormat } from './json-format.ts';
import { jsonapiFormat } from './jsonapi/jsonapi-format.ts';
import { jsonldFormat } from './jsonld/jsonld-format.ts';

/** The formats resources speak, in server preference order (JSON-LD first: the default). */
export const OUTPUT_FORMATS: readonly Format[] = [jsonldFormat, jsonFormat, halFormat, jsonapiFormat];
