// The vector-index contract on sqlite-vec's vec0 tables (the default wherever SQLite loads extensions).
import { VectorIndex } from "~/store/sqlite/vector-index";
import { vectorIndexContract } from "./vector-index.contract";

vectorIndexContract("sqlite-vec", VectorIndex);
