// Identifiers: time-ordered UUIDv7 so ids sort by creation and index well.

export const newId = (): string => Bun.randomUUIDv7();
