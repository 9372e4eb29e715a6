// The vector-index contract on the portable index (blobs in a plain table, a scan over typed arrays).
import { PortableVectorIndex } from "~/store/sqlite/portable-vector-index";
import { vectorIndexContract } from "./vector-index.contract";

vectorIndexContract("portable", PortableVectorIndex);
