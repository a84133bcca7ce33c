import path from "node:path";
import type { CanonicalDocument, CanonicalDocumentInput } from "../../ingest/model.ts";
import { loadAgreementNames } from "../../ingest/sources/kali/names.ts";
import {
  type KaliSnapshot,
  readKaliAgreements,
  resolveKaliSnapshot,
  selectAgreements,
} from "../../ingest/sources/kali/snapshot.ts";
import { type LegiSnapshot, readLegiCodes, resolveLegiSnapshot } from "../../ingest/sources/legi/snapshot.ts";
import { repoRoot } from "../../services/core/config.ts";

/**
 * What the benchmarks load (BENCH_SOURCE): `legi`, the installed codes (default); `kali`, every
 * collective agreement of a KALI snapshot (BENCH_KALI_VERSION, default 3.449.0), fetched once
 * into .cache/legi as the tests fetch theirs and read from there by every run; or `legi+kali`,
 * both, one after the other (bench:search and bench:index on the whole corpus; bench:ingest
 * compares one source with its floor, so it takes one of the first two).
 */
export type BenchSourceName = "legi" | "kali";
export type BenchCorpus = BenchSourceName | "legi+kali";

export function benchCorpus(): BenchCorpus {
  const name = process.env.BENCH_SOURCE ?? "legi";
  if (name !== "legi" && name !== "kali" && name !== "legi+kali") {
    console.error(`BENCH_SOURCE must be legi, kali or legi+kali, got ${JSON.stringify(name)}`);
    process.exit(2);
  }
  return name;
}

/**
 * The generated block a run on this corpus writes into the docs: the default (the codes) keeps the
 * plain markers, so a run on another corpus (`<!-- bench:search:legi+kali:start -->`) never
 * replaces the codes' figures the prose around them quotes.
 */
export function corpusMarkers(tool: string): { start: string; end: string } {
  const corpus = benchCorpus();
  const name = corpus === "legi" ? tool : `${tool}:${corpus}`;
  return { start: `<!-- ${name}:start -->`, end: `<!-- ${name}:end -->` };
}

/** How a run names the corpus it loaded. */
export function describeCorpus(): string {
  const corpus = benchCorpus();
  if (corpus === "legi") return "the four codes";
  const agreements = `the collective agreements of @socialgouv/kali-data ${KALI_BENCH_VERSION}`;
  return corpus === "kali" ? agreements : `the four codes and ${agreements}`;
}

export function benchSourceName(): BenchSourceName {
  const name = benchCorpus();
  if (name === "legi+kali") {
    console.error("bench:ingest compares one source with its floor: BENCH_SOURCE=legi or kali");
    process.exit(2);
  }
  return name;
}

export const KALI_BENCH_VERSION = process.env.BENCH_KALI_VERSION ?? "3.449.0";
const CACHE = path.join(repoRoot, ".cache/legi");

export type BenchSnapshot =
  | { name: "legi"; label: string; documents: number; snapshot: LegiSnapshot }
  | { name: "kali"; label: string; documents: number; snapshot: KaliSnapshot };

export async function resolveBenchSnapshot(name: BenchSourceName): Promise<BenchSnapshot> {
  if (name === "legi") {
    // The installed package, as `corpus ingest legi` without options (the cache is for fetched versions).
    const snapshot = await resolveLegiSnapshot({ cacheDir: CACHE });
    return { name, label: snapshot.label, documents: snapshot.codes.length, snapshot };
  }
  const snapshot = await resolveKaliSnapshot({ version: KALI_BENCH_VERSION, cacheDir: CACHE });
  return { name, label: snapshot.label, documents: selectAgreements(snapshot).length, snapshot };
}

/** The documents the ingest stores, as its command builds them (for the floor). */
export function* benchDocuments(source: BenchSnapshot): Generator<CanonicalDocument> {
  if (source.name === "legi") {
    // The adapter emits the canonical shape, every default filled (its type says so: tsc checks it).
    for (const { document } of readLegiCodes(source.snapshot)) yield document;
    return;
  }
  const names = loadAgreementNames();
  for (const { document, idcc } of readKaliAgreements(source.snapshot, selectAgreements(source.snapshot))) {
    if (!document) continue;
    const named: CanonicalDocumentInput = { ...document, aliases: names.get(idcc ?? "") ?? [] };
    yield named as CanonicalDocument;
  }
}
