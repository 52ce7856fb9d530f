/** The part of the `jsonld` package (which ships no types) the validity test uses. */
declare module 'jsonld' {
  interface RemoteDocument {
    contextUrl?: string;
    documentUrl: string;
    document: unknown;
  }
  const jsonld: {
    expand(input: unknown, options?: { base?: string; documentLoader?: (url: string) => Promise<RemoteDocument> }): Promise<unknown[]>;
  };
  export default jsonld;
}
