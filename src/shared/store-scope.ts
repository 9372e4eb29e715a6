// Whose rows a store transaction may see and write (Store.read/write/group in store/store.ts): the scope
// every service names, and the three kinds there are — a user's, an organization's, every row's.
/**
 * Whose rows a transaction may see and write, a wall behind the SQL's own user and organization
 * predicates (PostgreSQL: row-level security keyed on the transaction's settings; SQLite: none). Every
 * transaction names one: a user's request names its organization and user, organization-wide work
 * (an admin's sweep, report or key listing) its organization alone, and only work that is system-wide by
 * nature names EVERY_ROW (docs/ARCHITECTURE.md "Row-level security" lists which is which).
 */
export interface StoreScope {
  org?: string;
  user?: string;
}

/** Every organization and user: start-up, the operator's CLI, sweeps and enforcement across organizations. */
export const EVERY_ROW: StoreScope = Object.freeze({});

/** One organization, every user of it. */
export const orgWide = (org: string): StoreScope => ({ org });

/** One user of one organization (an Owner's rows). */
export const userScope = (o: { org: string; userId: string }): StoreScope => ({ org: o.org, user: o.userId });
