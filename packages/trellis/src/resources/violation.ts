/** One validation failure, as 422 responses list them (`violations`). */
export interface Violation {
  /** Dotted path of the offending property, e.g. `author` or `tags.0`; empty for the whole body. */
  readonly propertyPath: string;
  readonly message: string;
  /** Stable machine-readable code, e.g. `required`, `type`, `unknown_field`, `invalid_iri`. */
  readonly code: string;
}
