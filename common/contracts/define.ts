// A call's contract, declared once: its path, the payload it takes and the
// result it answers (zod; TypeScript types are inferred from them). The server
// operation spreads it (`defineOperation({ ...contract, summary, auth, ... })`),
// the browser client is typed by its path through a registry of contracts
// (types only: no zod in the browser), and tests parse answers with `result`.
import type { z } from 'zod';

/** 'json': a JSON body (the default); 'multipart': form fields then one file (uploads). */
export type BodyKind = 'json' | 'multipart';

export interface Contract<Path extends string = string, P extends z.ZodType = z.ZodType, R extends z.ZodType = z.ZodType, B extends BodyKind = BodyKind> {
  path: Path;
  payload: P;
  result: R;
  body: B;
  /**
   * The payload's multi-line text fields (a form's text area): paths as
   * common/contracts/text.ts findRefusedText names them (`reason`,
   * `comments[].comment`). Only there may a text hold line breaks and tabs;
   * every other text field refuses them with the other control characters.
   */
  multiline?: readonly string[];
}

export function defineContract<const Path extends string, P extends z.ZodType, R extends z.ZodType, const B extends BodyKind = 'json'>(contract: {
  path: Path;
  payload: P;
  result: R;
  body?: B;
  multiline?: readonly string[];
}): Contract<Path, P, R, B> {
  return { ...contract, body: contract.body ?? ('json' as B) };
}

/** What the caller sends (ids may be digit strings: the input side of the schema). */
export type PayloadOf<C extends Contract> = z.input<C['payload']>;
/** What the handler receives once the payload has been parsed. */
export type ParsedPayloadOf<C extends Contract> = z.output<C['payload']>;
export type ResultOf<C extends Contract> = z.output<C['result']>;

/** Contracts by path: what a client is typed by and what the server registers. */
export type Registry = Record<string, Contract>;

type ByPath<C extends readonly Contract[]> = { [K in C[number] as K['path']]: K };

/** One client's calls (`/www/…` for customers; the back office will have its own). A path may appear once. */
export function defineRegistry<const C extends readonly Contract[]>(contracts: C): ByPath<C> {
  const byPath: Record<string, Contract> = {};
  for (const contract of contracts) {
    if (byPath[contract.path]) throw new Error(`two contracts for ${contract.path}`);
    byPath[contract.path] = contract;
  }
  return byPath as ByPath<C>;
}

/** The paths of a registry that take a JSON body, or a multipart upload. */
export type JsonPath<R extends Registry> = { [K in keyof R & string]: R[K]['body'] extends 'json' ? K : never }[keyof R & string];
export type UploadPath<R extends Registry> = { [K in keyof R & string]: R[K]['body'] extends 'multipart' ? K : never }[keyof R & string];
