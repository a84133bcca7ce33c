import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../services/core/config.ts";
import type { Queryable } from "../../services/store/database.ts";

/**
 * Word vectors trained on our own corpus, for measuring query expansion (eval:weights,
 * EVAL_EXPANSION): fastText skipgram (Debian's `fasttext`) over the provisions' headings and text
 * as the search analyser reads them (lexemes in position order, from each `search_vector`), so
 * a neighbour is a lexeme search can match; with the guides' text too when asked, trained once
 * per fold without that fold's guides, so no vector carries a held-out query's own guide.
 */

const DIR = path.join(repoRoot, ".cache/word-vectors");

export interface WordVectors {
  /** The k nearest lexemes to `lexeme` by cosine, at least `minimum`, itself excluded. */
  neighbours(lexeme: string, k: number, minimum: number): Array<{ lexeme: string; cosine: number }>;
}

/**
 * `withGuides`: also the text of the guides the store holds now (guide_citations: titles and
 * paragraphs, each section once), for a copy whose held-out fold's guides are not loaded.
 */
export async function trainWordVectors(db: Queryable, withGuides = false): Promise<WordVectors> {
  const which = spawnSync("fasttext", [], { encoding: "utf8" });
  if (which.error) throw new Error("fasttext is not installed (Debian: apt-get install fasttext)");
  mkdirSync(DIR, { recursive: true });
  const { rows } = await db.query<{ line: string }>(
    `SELECT string_agg(lexeme, ' ' ORDER BY pos) AS line FROM (
       SELECT p.id, u.lexeme, x.pos
       FROM provisions p, unnest(p.search_vector) AS u, unnest(u.positions, u.weights) AS x(pos, w)
       WHERE p.present_in_source AND x.w IN ('B', 'C')) AS s
     GROUP BY id ORDER BY id`,
  );
  if (withGuides) {
    const guides = await db.query<{ line: string }>(
      `SELECT string_agg(u.lexeme, ' ' ORDER BY x.pos) AS line
       FROM (SELECT row_number() OVER () AS n, t FROM (
               SELECT DISTINCT guide_title || ' ' || section_title || ' ' || paragraphs AS t
               FROM guide_citations) AS d) AS g,
            unnest(corpus_tsvector(g.t)) AS u, unnest(u.positions) AS x(pos)
       GROUP BY g.n`,
    );
    rows.push(...guides.rows);
  }
  const corpus = path.join(DIR, "corpus.txt");
  writeFileSync(corpus, `${rows.map((r) => r.line).join("\n")}\n`);
  const started = performance.now();
  // Whole lexemes only (no character n-grams: lexemes are already stems), fastText's defaults else.
  const trained = spawnSync(
    "fasttext",
    [
      "skipgram",
      "-input",
      corpus,
      "-output",
      path.join(DIR, "lexemes"),
      "-dim",
      "100",
      "-epoch",
      "10",
    ].concat(["-minCount", "5", "-minn", "0", "-maxn", "0", "-thread", "2", "-verbose", "0"]),
    { encoding: "utf8" },
  );
  if (trained.status !== 0) throw new Error(`fasttext failed: ${trained.stderr}`);
  console.log(
    `word vectors: fastText skipgram over ${rows.length} provisions${withGuides ? " and guide sections" : ""} in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  return readVectors(path.join(DIR, "lexemes.vec"));
}

function readVectors(file: string): WordVectors {
  const [header, ...lines] = readFileSync(file, "utf8").trim().split("\n");
  const dim = Number(header!.split(" ")[1]);
  const words: string[] = [];
  const matrix = new Float32Array(lines.length * dim);
  lines.forEach((line, i) => {
    const parts = line.trimEnd().split(" ");
    words.push(parts[0]!);
    let norm = 0;
    for (let d = 0; d < dim; d++) norm += Number(parts[d + 1]) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < dim; d++) matrix[i * dim + d] = Number(parts[d + 1]) / norm;
  });
  const rowOf = new Map(words.map((w, i) => [w, i]));
  const memo = new Map<string, Array<{ lexeme: string; cosine: number }>>();
  return {
    neighbours(lexeme, k, minimum) {
      const key = `${lexeme} ${k} ${minimum}`;
      const known = memo.get(key);
      if (known) return known;
      const row = rowOf.get(lexeme);
      const found: Array<{ lexeme: string; cosine: number }> = [];
      if (row !== undefined) {
        for (let other = 0; other < words.length; other++) {
          if (other === row) continue;
          let cosine = 0;
          for (let d = 0; d < dim; d++) cosine += matrix[row * dim + d]! * matrix[other * dim + d]!;
          if (cosine >= minimum) found.push({ lexeme: words[other]!, cosine });
        }
        found.sort((a, b) => b.cosine - a.cosine);
      }
      const best = found.slice(0, k);
      memo.set(key, best);
      return best;
    },
  };
}
