/**
 * Something made once for each open database and kept as long as it is open: its prepared statements, the run
 * tag of its order numbers. A restore opens a new connection, which gets its own; the closed one's is dropped
 * with it (a WeakMap), so a statement is never run on a connection it was not prepared on.
 */
import type { Db } from './open.ts';

/** `make` at a database's first use, then the same value for that database. */
export function perDatabase<T>(make: (db: Db) => T): (db: Db) => T {
  const made = new WeakMap<Db, T>();
  return (db) => {
    let value = made.get(db);
    if (value === undefined) made.set(db, (value = make(db)));
    return value;
  };
}
