import { readFileSync } from "node:fs";
import { z } from "zod";
import { DOMAINS, type Domain, isDomain } from "./domains.ts";
import { InputError } from "./errors.ts";
import { contentHash } from "./hash.ts";
import { foldAccents } from "./public-ids.ts";
import { parseRulesFile } from "./rules-file.ts";

/**
 * Domain classification at ingest, from a rules file editors change (ingest/rules/domains.yaml).
 * A provision gets the union of the domains of every rule that matches it; a provision no rule
 * matches has no domain and is stored as unclassified — never guessed.
 */

const ruleSchema = z
  .object({
    name: z.string().min(1),
    match: z
      .object({
        document: z.array(z.string().min(1)).optional(),
        kind: z.array(z.string().min(1)).optional(),
        title: z.string().min(1).optional(),
        section: z.string().min(1).optional(),
      })
      .strict()
      .refine(
        (m) => m.document || m.kind || m.title || m.section,
        "needs at least one of document, kind, title, section",
      ),
    domains: z.array(z.string()).min(1),
  })
  .strict();

const rulesFileSchema = z.object({ version: z.literal(1), rules: z.array(ruleSchema) }).strict();

interface CompiledRule {
  name: string;
  documents: Set<string> | null;
  kinds: Set<string> | null;
  title: RegExp | null;
  section: RegExp | null;
  domains: Domain[];
}

export interface DomainRules {
  file: string;
  hash: string;
  rules: CompiledRule[];
}

/**
 * Removes accents: the combining marks left by NFD. Not `\p{Diacritic}`, which also holds
 * spacing characters such as `^` and `` ` `` and would strip anchors out of a rule's pattern.
 */
export function fold(value: string): string {
  return foldAccents(value).toLowerCase();
}

function compile(pattern: string | undefined, file: string, field: string): RegExp | null {
  if (pattern === undefined) return null;
  try {
    // Accents are folded in the pattern as in the text, but case is left to the `i` flag:
    // lower-casing the pattern itself would turn escapes such as \D, \S or \p{L} into others.
    return new RegExp(foldAccents(pattern), "iu");
  } catch (error) {
    throw new InputError(file, field, `invalid regular expression: ${(error as Error).message}`);
  }
}

export function parseDomainRules(source: string, file: string): DomainRules {
  const parsed = parseRulesFile(source, file, rulesFileSchema);
  const rules = parsed.rules.map((rule, i): CompiledRule => {
    rule.domains.forEach((domain, j) => {
      if (!isDomain(domain)) {
        throw new InputError(
          file,
          `rules.${i}.domains.${j}`,
          `unknown domain "${domain}"; expected one of ${DOMAINS.join(", ")}`,
        );
      }
    });
    return {
      name: rule.name,
      documents: rule.match.document ? new Set(rule.match.document) : null,
      kinds: rule.match.kind ? new Set(rule.match.kind) : null,
      title: compile(rule.match.title, file, `rules.${i}.match.title`),
      section: compile(rule.match.section, file, `rules.${i}.match.section`),
      domains: rule.domains as Domain[],
    };
  });
  return { file, hash: contentHash(parsed), rules };
}

export function loadDomainRules(file: string): DomainRules {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    throw new InputError(file, "path", "no such file (set DOMAIN_RULES to the rules file)");
  }
  return parseDomainRules(source, file);
}

/**
 * What classification reads of a document: its ids and title, its section headings and the
 * section each provision sits in. A canonical document (ingest) is one; so is a bare title
 * (search's best_effort filter, services/search/title-classifier.ts).
 */
export interface ClassifiableDocument {
  publicId: string;
  source: { documentId: string };
  /** `code`, `collective_agreement`…; unknown for a bare title, which then matches no rule on kinds. */
  kind?: string;
  title: string;
  sections: ReadonlyArray<{ id: string; parentId: string | null; title: string }>;
  provisions: ReadonlyArray<{ sourceId: string; sectionId: string | null }>;
}

function documentMatches(rule: CompiledRule, doc: ClassifiableDocument): boolean {
  if (rule.documents && !rule.documents.has(doc.source.documentId) && !rule.documents.has(doc.publicId))
    return false;
  if (rule.kinds && !(doc.kind !== undefined && rule.kinds.has(doc.kind))) return false;
  if (rule.title && !rule.title.test(fold(doc.title))) return false;
  return true;
}

const sorted = (domains: Set<Domain>) => DOMAINS.filter((d) => domains.has(d));

export interface Classification {
  document: Domain[];
  /** Domains per provision source id, in DOMAINS order; empty means unclassified. */
  provisions: Map<string, Domain[]>;
}

/** Classifies a document and each of its provisions (by its section headings). */
export function classify(doc: ClassifiableDocument, rules: DomainRules): Classification {
  const applicable = rules.rules.filter((rule) => documentMatches(rule, doc));
  const documentDomains = new Set<Domain>();
  for (const rule of applicable) if (!rule.section) for (const d of rule.domains) documentDomains.add(d);

  const sectionRules = applicable.filter((rule) => rule.section);
  const headings = new Map(doc.sections.map((s) => [s.id, { parentId: s.parentId, title: fold(s.title) }]));
  const sectionDomains = new Map<string | null, Domain[]>();
  const domainsOfSection = (sectionId: string | null): Domain[] => {
    const known = sectionDomains.get(sectionId);
    if (known) return known;
    const found = new Set<Domain>(documentDomains);
    for (let id = sectionId; id !== null; id = headings.get(id)?.parentId ?? null) {
      const heading = headings.get(id);
      if (!heading) break;
      for (const rule of sectionRules)
        if (rule.section!.test(heading.title)) for (const d of rule.domains) found.add(d);
    }
    const result = sorted(found);
    sectionDomains.set(sectionId, result);
    return result;
  };

  return {
    document: sorted(documentDomains),
    provisions: new Map(doc.provisions.map((p) => [p.sourceId, domainsOfSection(p.sectionId)])),
  };
}
