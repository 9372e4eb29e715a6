// Runs once before the test files: nothing yet (the built-in model build hooks in here).
export {};
