// Typed JSON and flag columns. A JSON text column is declared as Json<T>: it
// can only be written with toJson(value) and is read back with fromJson(text)
// at the repository edge, so no caller sees the raw text or casts it. Flags
// are 0/1 integers on both databases (SQLite has no boolean type); the
// repositories hand out booleans.

declare const json: unique symbol;

/** JSON text that holds a T (a compile-time brand; at run time a plain string). */
export type Json<T> = string & { readonly [json]: T };

export function toJson<T>(value: T): Json<T> {
  return JSON.stringify(value) as Json<T>;
}

export function fromJson<T>(text: Json<T>): T {
  return JSON.parse(text) as T;
}

export type Flag = 0 | 1;

export function toFlag(value: boolean): Flag {
  return value ? 1 : 0;
}
