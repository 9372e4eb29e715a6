// The organization a store's existing rows go to when a migration gives them one (SPEC §8): migrations
// name it by a placeholder, filled in at migration time as a quoted SQL literal (both engines' syntax).
export const HOME_ORG_PLACEHOLDER = "{{home_org}}";

/** `sql` with every placeholder replaced by `org` as a string literal. */
export const withHomeOrg = (sql: string, org: string): string =>
  sql.replaceAll(HOME_ORG_PLACEHOLDER, `'${org.replaceAll("'", "''")}'`);
