/**
 * A declaration that cannot work: an unknown operation, a path without its leading slash, a
 * filter naming a property the resource lacks. Thrown when the app module loads (defineResource)
 * or the app is built (the registry); the CLI says it in one line, as the fix is in the
 * declaration it names, not in a stack through the framework.
 */
export class DefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DefinitionError';
  }
}
