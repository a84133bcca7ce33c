/**
 * Scopes of the spec (section 5), and `ingest:write`, ours, for corpus editors: submit ingest runs
 * and follow them (/api/v1/admin/ingest-runs). Never given unless asked for.
 */
export const SCOPES = ["search:read", "corpus:read", "changes:read", "answer:write", "ingest:write"] as const;
export type Scope = (typeof SCOPES)[number];

/** What a new key gets unless a narrower set is asked for. */
export const DEFAULT_SCOPES: Scope[] = ["corpus:read", "search:read", "changes:read"];
