import type { Domain } from "../core/domains.ts";

/**
 * One index document per provision: what Elasticsearch and OpenSearch store. Postgres writes it
 * (services/store/index-source.ts), so the index is a derived copy that can always be rebuilt, and
 * the same provision version always yields the same document (indexing is idempotent). The
 * mapping in dsl.ts is strict: a field added here must be added there.
 */
export interface ProvisionIndexDocument {
  public_id: string;
  source_id: string;
  version_id: string;
  document_id: string;
  document_title: string;
  /** `code`, `collective_agreement`…: the reach prior (RANKING.agreement). */
  document_kind: string;
  number: string;
  /** The article number however written: `L1237-1-1` for "L. 1237-1-1". */
  number_key: string;
  section_path: string[];
  /**
   * The names of the divisions it opens (migration 029): copied into `section_path`'s terms
   * (dsl.ts), so the headings field reads them a second time; `section_path` as stored, what a
   * hit shows, is the path alone.
   */
  opened_divisions: string[];
  text: string;
  /**
   * The names the provision is known by: the lay wording of the guides citing it (document
   * expansion, `corpus ingest guides`) and the notions its text defines (migration 013).
   */
  guides: string;
  status: "in_force" | "repealed" | "not_yet_in_force";
  effective_from: string | null;
  /** The text's own end. */
  effective_to: string | null;
  /** When the provision is in force, whichever version is (migration 022): what filters read. */
  in_force_from: string | null;
  in_force_to: string | null;
  domains: Domain[];
  /** Domains of the document itself. */
  document_domains: Domain[];
  present_in_source: boolean;
  /** How many other provisions cite it (migration 011): the authority prior. */
  cited_by: number;
  /** Whether it opens its division (migration 020): the opening prior. */
  opens_section: boolean;
  /** The row's content hash with its guides field: what verification compares (index-source.ts). */
  content_hash: string;
}
