import type { Database } from "./database.ts";

/** The answer audit (migration 007): SQL only. */
export interface AnswerLogEntry {
  projectId: number;
  keyLookupId: string;
  questionHmac: string;
  questionChars: number;
  domains: string[] | null;
  composer: "extractive" | "generative";
  evidence: "sufficient" | "insufficient";
  fallbackReason: string | null;
  retrieved: string[];
  cited: string[];
  sentences: number;
  milliseconds: number;
  channel: "http" | "mcp" | "eval";
}

export async function logAnswer(db: Database, e: AnswerLogEntry): Promise<void> {
  await db.query(
    `INSERT INTO answer_log (project_id, key_lookup_id, question_hmac, question_chars, domains, composer, evidence,
       fallback_reason, retrieved, cited, sentences, milliseconds, channel)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    [
      e.projectId,
      e.keyLookupId,
      e.questionHmac,
      e.questionChars,
      e.domains,
      e.composer,
      e.evidence,
      e.fallbackReason,
      e.retrieved,
      e.cited,
      e.sentences,
      e.milliseconds,
      e.channel,
    ],
  );
}
