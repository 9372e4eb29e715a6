// Every Elysia instance is made here, with normalize off: Elysia's normalizer coerces a JSON
// array into an object ({"0": …}) before validation, which would accept `"metadata": [1]`.
import { Elysia } from "elysia";

export const router = (prefix?: string) => new Elysia({ normalize: false, ...(prefix ? { prefix } : {}) });
